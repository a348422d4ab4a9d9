import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpTransportType } from '@microsoft/signalr';
import type { HubConnection } from '@microsoft/signalr';
import {
  TRANSPORTS,
  buildClient,
  makeTokens,
  recordEvents,
  startServer,
  stopServer,
  waitFor,
} from './helpers.ts';
import type { TestServer } from './helpers.ts';
import { siteChannel } from '../../../server/hub/site.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';

/** Two Fastify apps with their own hubs, sharing Redis: two processes serving one site. */
describe('hubs sharing a Redis backplane', () => {
  let servers: TestServer[] = [];
  let site = '';
  const clients: HubConnection[] = [];

  /** Both "processes" must accept the same tokens, as they would with one auth server. */
  const startPair = async () => {
    const tokens = makeTokens();
    site = `test-${randomUUID()}`;
    const options = { redisUrl: REDIS_URL, site };
    servers = [await startServer(options, tokens), await startServer(options, tokens)];
    return servers as [TestServer, TestServer];
  };

  const connect = async (server: TestServer, token: string, transport = HttpTransportType.WebSockets) => {
    const client = buildClient(server.hubUrl, token, transport);
    clients.push(client);
    await client.start();
    return client;
  };

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.stop()));
    await Promise.all(servers.map(stopServer));
    servers = [];
  });

  it.each(TRANSPORTS)(
    'delivers an entity event published on hub A to a %s client of hub B',
    async (_n, transport) => {
      const [a, b] = await startPair();
      const client = await connect(b, 'token-a1', transport);
      const events = recordEvents(client);
      await client.invoke('SubscribeToEntity', 'Contact:1');

      await a.hub.publishToEntity('Contact:1:elsewhere', 'NotSubscribed', null);
      await a.hub.publishToEntity('Contact:1', 'ContactChanged', { via: 'A' });
      await waitFor(() => events.length > 0);
      expect(events).toEqual([{ eventName: 'ContactChanged', data: { via: 'A' }, entityKey: 'Contact:1' }]);
    },
  );

  it('routes the publishing process own deliveries through Redis too, exactly once', async () => {
    const [a, b] = await startPair();
    const spy = new Redis(REDIS_URL);
    const seen: string[] = [];
    spy.on('message', (_channel: string, payload: string) => seen.push(payload));
    await spy.subscribe(siteChannel(site));
    try {
      const client = await connect(a, 'token-a1');
      const events = recordEvents(client);
      await client.invoke('SubscribeToEntity', 'Contact:1');
      await a.hub.publishToEntity('Contact:1', 'One', 1);
      // Redis keeps channel order: if A also delivered 'One' locally, a second 'One' would precede 'Two'.
      await b.hub.publishToEntity('Contact:1', 'Two', 2);
      await waitFor(() => events.some((e) => e.eventName === 'Two'));
      expect(events.map((e) => e.eventName)).toEqual(['One', 'Two']);
      await waitFor(() => seen.length === 2);
      expect(seen.every((m) => m.includes('SendEvent'))).toBe(true);
    } finally {
      spy.disconnect();
    }
  });

  it('publishToAccount and disconnectToken reach connections in the other process', async () => {
    const [a, b] = await startPair();
    const onA = await connect(a, 'token-a1b');
    const onB = await connect(b, 'token-a1');
    const [eventsA, eventsB] = [onA, onB].map(recordEvents);
    const closedB = new Promise<Error | undefined>((resolve) => onB.onclose(resolve));

    await a.hub.publishToAccount(1, 'Hello', { n: 1 }, 'Contact:1');
    await waitFor(() => eventsA!.length === 1 && eventsB!.length === 1);

    await a.hub.disconnectToken(a.tokens.get('token-a1')!.tokenId);
    expect((await closedB)?.message).toMatch(/Token revoked/);
    expect(b.hub.connectionCount()).toBe(0);
    expect(a.hub.connectionCount()).toBe(1);
  });
});
