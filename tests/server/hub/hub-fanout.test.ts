import { afterEach, describe, expect, it } from 'vitest';
import { RawClient, startServer, stopServer, waitFor } from './helpers.ts';
import type { TestServer } from './helpers.ts';

const CONNECTIONS = 1000;

describe('fan-out to many connections', () => {
  let server: TestServer | undefined;
  const sockets: RawClient[] = [];

  afterEach(async () => {
    sockets.splice(0).forEach((s) => s.close());
    await stopServer(server);
    server = undefined;
  });

  it(`delivers one entity event to ${CONNECTIONS} subscribed connections`, async () => {
    // One account holds all of them here; the per-account limit is tested on its own.
    server = await startServer({ maxConnectionsPerAccount: Infinity });
    for (let i = 0; i < CONNECTIONS; i += 1) {
      sockets.push(new RawClient(server.wsUrl, { authorization: 'Bearer token-a1' }));
    }
    await Promise.all(sockets.map((s) => s.opened()));
    for (const s of sockets) {
      s.send(
        { protocol: 'json', version: 1 },
        { type: 1, invocationId: '1', target: 'SubscribeToEntity', arguments: ['Contact:1'] },
      );
    }
    await waitFor(() => sockets.every((s) => s.records.length === 2), 20_000);
    expect(server.hub.connectionCount()).toBe(CONNECTIONS);

    const started = performance.now();
    await server.hub.publishToEntity('Contact:1', 'ContactChanged', { id: 1, text: 'x'.repeat(200) });
    const enqueuedMs = performance.now() - started;
    await waitFor(() => sockets.every((s) => s.records.length === 3), 20_000);

    const expected = JSON.stringify({
      type: 1,
      target: 'SendEvent',
      arguments: ['ContactChanged', { id: 1, text: 'x'.repeat(200) }, 'Contact:1'],
    });
    expect(sockets.every((s) => s.records[2] === expected)).toBe(true);
    // Generous bound: catches per-connection work gone quadratic, not machine speed.
    expect(enqueuedMs).toBeLessThan(500);
  }, 60_000);
});
