import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpTransportType, type HubConnection } from '@microsoft/signalr';
import type { HubObserver } from '../../../server/hub/types.ts';
import { freePort } from '../../../harness/server-process.ts';
import { startRedis, stopRedis } from '../../../harness/redis-process.ts';
import { buildClient, makeTokens, recordEvents, startServer, stopServer, waitFor } from './helpers.ts';
import type { TestServer } from './helpers.ts';

/**
 * Fault: Redis, the hub's backplane, goes away and comes back (a restart; it keeps nothing). It runs
 * its own redis-server on a port of its own, so killing it touches no other test.
 */
function healthLog() {
  const seen: string[] = [];
  const observer: HubObserver = {
    delivered: () => undefined,
    backplaneLost: () => seen.push('lost'),
    backplaneRecovered: () => seen.push('recovered'),
  };
  return { seen, observer };
}

describe('the Redis backplane lost and back', () => {
  let redis: ChildProcess | null = null;
  let servers: TestServer[] = [];
  const clients: HubConnection[] = [];

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.stop()));
    await Promise.all(servers.map(stopServer));
    servers = [];
    if (redis) await stopRedis(redis);
    redis = null;
  });

  it('keeps publishing without waiting for Redis, and has every client reconnect once it is back', async () => {
    const port = await freePort();
    redis = await startRedis(port);
    const tokens = makeTokens();
    const [healthA, healthB] = [healthLog(), healthLog()];
    const options = { redisUrl: `redis://127.0.0.1:${port}`, site: `outage-${process.pid}` };
    const a = await startServer({ ...options, observer: healthA.observer }, tokens);
    const b = await startServer({ ...options, observer: healthB.observer }, tokens);
    servers = [a, b];
    const connect = async (server: TestServer, token: string) => {
      const client = buildClient(server.hubUrl, token, HttpTransportType.WebSockets);
      clients.push(client);
      await client.start();
      await client.invoke('SubscribeToEntity', 'Contact:1');
      return client;
    };
    const onA = await connect(a, 'token-a1b');
    const onB = await connect(b, 'token-a1');
    const [eventsA, eventsB] = [recordEvents(onA), recordEvents(onB)];
    await a.hub.publishToEntity('Contact:1', 'Before', null);
    await waitFor(() => eventsA.length === 1 && eventsB.length === 1);

    await stopRedis(redis);
    await waitFor(() => healthA.seen.includes('lost') && healthB.seen.includes('lost'));
    // A write's publish does not wait for Redis (a hung publish would time this test out), and
    // reaches this process's own connections at once.
    await a.hub.publishToEntity('Contact:1', 'During', null);
    await waitFor(() => eventsA.some((e) => e.eventName === 'During'));
    expect(eventsB.map((e) => e.eventName)).toEqual(['Before']);

    // B's client missed 'During': once Redis is back it is told to reconnect (and so to catch up).
    const closedB = new Promise<Error | undefined>((resolve) => onB.onclose(resolve));
    redis = await startRedis(port);
    await closedB;
    await waitFor(() => healthA.seen.includes('recovered') && healthB.seen.includes('recovered'), 10_000);
    expect(healthB.seen).toEqual(['lost', 'recovered']);

    const again = await connect(b, 'token-a1');
    const eventsAgain = recordEvents(again);
    await a.hub.publishToEntity('Contact:1', 'After', null);
    await waitFor(() => eventsAgain.some((e) => e.eventName === 'After'));
  }, 30_000);
});
