import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HubConnection } from '../../../server/hub/connection.ts';
import { GroupIndex } from '../../../server/hub/registry.ts';
import { RawClient, principal, startServer, stopServer } from './helpers.ts';
import type { TestServer } from './helpers.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Collects garbage after the current job, when WeakRefs made in it may be cleared. */
const collectGarbage = async () => {
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  await new Promise((resolve) => setImmediate(resolve));
  gc();
};

/**
 * What an idle connection holds (the hub-scale target: 20,000 of them in one process). The bench
 * measures the bytes; these pin down the two costs that once made them large.
 */
describe('an idle hub connection', () => {
  let server: TestServer | undefined;
  const clients: RawClient[] = [];

  afterEach(async () => {
    clients.splice(0).forEach((c) => c.close());
    vi.restoreAllMocks();
    await stopServer(server);
    server = undefined;
  });

  const openAndShakeHands = async (count: number) => {
    const opened = Array.from({ length: count }, () => {
      const client = new RawClient(server!.wsUrl, { authorization: 'Bearer token-a1' });
      clients.push(client);
      return client;
    });
    await Promise.all(opened.map((c) => c.opened()));
    await Promise.all(opened.map((c) => c.handshake()));
  };

  it('keeps nothing of its upgrade request (headers, URL, socket buffers)', async () => {
    server = await startServer();
    const requests: Array<WeakRef<IncomingMessage>> = [];
    server.app.server.prependListener('upgrade', (request: IncomingMessage) => {
      requests.push(new WeakRef(request));
    });
    await openAndShakeHands(3);
    expect(server.hub.connectionCount()).toBe(3);
    await collectGarbage();
    expect(requests).toHaveLength(3);
    expect(requests.filter((r) => r.deref() !== undefined)).toHaveLength(0);
  });

  it('owns no timer: pings, client timeout and token expiry run on one heartbeat for all', async () => {
    server = await startServer({ keepAliveIntervalMs: 1000 });
    const intervals = vi.spyOn(globalThis, 'setInterval');
    await openAndShakeHands(5);
    expect(server.hub.connectionCount()).toBe(5);
    expect(intervals).toHaveBeenCalledTimes(1);
  });
});

describe('GroupIndex', () => {
  const connection = () =>
    new HubConnection(
      principal(1, 'jti'),
      'token',
      { keepAliveIntervalMs: 15_000, clientTimeoutMs: 30_000 },
      { onOpen: () => undefined, onMessage: () => undefined, onClose: () => undefined },
    );

  it('holds a group of one and of many alike, and forgets an emptied group', () => {
    const index = new GroupIndex<string>();
    const [a, b] = [connection(), connection()];
    index.add('k', a);
    index.add('k', a);
    expect(index.size('k')).toBe(1);
    expect(index.members('k')).toEqual([a]);
    index.remove('k', b);
    expect(index.size('k')).toBe(1);
    index.add('k', b);
    expect(index.size('k')).toBe(2);
    expect(index.members('k')).toEqual([a, b]);
    index.remove('k', a);
    expect(index.members('k')).toEqual([b]);
    index.remove('k', b);
    expect(index.size('k')).toBe(0);
    expect(index.members('k')).toEqual([]);
    index.add('k', b);
    expect(index.members('k')).toEqual([b]);
  });
});
