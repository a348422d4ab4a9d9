import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HubConnection } from '../../../server/hub/connection.ts';
import { GroupIndex } from '../../../server/hub/registry.ts';
import { VERIFIED_TOKEN_TTL_MS } from '../../../server/hub/verified-tokens.ts';
import { RawClient, principal, startServer, stopServer, waitFor } from './helpers.ts';
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

  it('keeps no access token: a subscription checks the token again by its claims', async () => {
    const token = `token-${'x'.repeat(600)}`;
    server = await startServer();
    server.tokens.set(token, principal(1, 'jti-long'));
    const held: HubConnection[] = [];
    const use = HubConnection.prototype.usePrincipal;
    vi.spyOn(HubConnection.prototype, 'usePrincipal').mockImplementation(function (this: HubConnection, p) {
      held.push(this);
      use.call(this, p);
    });
    const client = new RawClient(server.wsUrl, { authorization: `Bearer ${token}` });
    clients.push(client);
    await client.opened();
    await client.handshake();
    expect(held).toHaveLength(1);
    const strings = Object.values(held[0]!).filter((v): v is string => typeof v === 'string');
    expect(strings.filter((v) => v.includes(token.slice(0, 40)))).toEqual([]);
    // And the check by its claims refuses it once the token is revoked.
    server.tokens.delete(token);
    const later = Date.now() + VERIFIED_TOKEN_TTL_MS + 1;
    vi.spyOn(Date, 'now').mockReturnValue(later);
    client.send({ type: 1, invocationId: '1', target: 'SubscribeToEntity', arguments: ['Contact:1'] });
    // Refused, the connection is closed (and told why) before the completion could go out.
    const closing = () => client.messages().find((m) => m.type === 7);
    await waitFor(() => closing() !== undefined);
    expect(closing()).toMatchObject({ error: 'The access token is no longer valid.' });
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
