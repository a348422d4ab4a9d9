import { afterEach, describe, expect, it } from 'vitest';
import { HttpTransportType, HubConnectionState } from '@microsoft/signalr';
import type { HubConnection } from '@microsoft/signalr';
import { TRANSPORTS, buildClient, recordEvents, startServer, stopServer, waitFor } from './helpers.ts';
import type { TestServer } from './helpers.ts';

/** The official @microsoft/signalr client against the hub, over each transport. */
describe.each(TRANSPORTS)('official client over %s', (_name, transport) => {
  let server: TestServer | undefined;
  const clients: HubConnection[] = [];

  const connect = async (token: string): Promise<HubConnection> => {
    const client = buildClient(server!.hubUrl, token, transport);
    clients.push(client);
    await client.start();
    return client;
  };

  const closedPromise = (client: HubConnection): Promise<Error | undefined> =>
    new Promise((resolve) => client.onclose((error) => resolve(error)));

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.stop()));
    await stopServer(server);
    server = undefined;
  });

  it('connects, and the hub counts the connection until the client stops', async () => {
    server = await startServer();
    const client = await connect('token-a1');
    expect(client.state).toBe(HubConnectionState.Connected);
    expect(server.hub.connectionCount()).toBe(1);
    await client.stop();
    await waitFor(() => server!.hub.connectionCount() === 0);
  });

  it('delivers events of subscribed entities only', async () => {
    server = await startServer();
    const client = await connect('token-a1');
    const events = recordEvents(client);
    const arrived = new Promise<void>((resolve) => client.on('SendEvent', () => resolve()));

    await expect(client.invoke('SubscribeToEntity', 'Contact:1')).resolves.toBeNull();
    // Published first on the same connection's path, so it would arrive first if it were delivered at all.
    await server.hub.publishToEntity('Contact:1:other', 'ContactChanged', { id: 99 });
    await server.hub.publishToEntity('Contact:1', 'ContactChanged', { id: 1, name: 'Ada' });
    await arrived;

    expect(events).toEqual([
      { eventName: 'ContactChanged', data: { id: 1, name: 'Ada' }, entityKey: 'Contact:1' },
    ]);
  });

  it('stops delivering after UnsubscribeFromEntity', async () => {
    server = await startServer();
    const client = await connect('token-a1');
    const events = recordEvents(client);
    await client.invoke('SubscribeToEntity', 'Contact:1');
    await client.invoke('SubscribeToEntity', 'Contact:1:marker');
    await server.hub.publishToEntity('Contact:1', 'First', 1);
    await waitFor(() => events.length === 1);

    await expect(client.invoke('unsubscribefromentity', 'Contact:1')).resolves.toBeNull();
    await server.hub.publishToEntity('Contact:1', 'AfterUnsubscribe', 2);
    await server.hub.publishToEntity('Contact:1:marker', 'Marker', 3);
    await waitFor(() => events.length >= 2);

    expect(events.map((e) => e.eventName)).toEqual(['First', 'Marker']);
  });

  it('rejects a forbidden subscription with "Forbidden" and delivers nothing for it', async () => {
    server = await startServer();
    const client = await connect('token-a1');
    const events = recordEvents(client);

    await expect(client.invoke('SubscribeToEntity', 'Contact:2')).rejects.toThrow(/Forbidden/);
    await client.invoke('SubscribeToEntity', 'Contact:1');
    await server.hub.publishToEntity('Contact:2', 'Secret', {});
    await server.hub.publishToEntity('Contact:1', 'Mine', {});
    await waitFor(() => events.length > 0);

    expect(events.map((e) => e.eventName)).toEqual(['Mine']);
  });

  it('rejects an unknown method and accepts SendMessage with any arguments', async () => {
    server = await startServer();
    const client = await connect('token-a1');
    await expect(client.invoke('NoSuchMethod')).rejects.toThrow(/Unknown hub method/);
    await expect(client.invoke('SendMessage', 'hello', { any: 1 }, 3)).resolves.toBeNull();
  });

  it('publishToAccount reaches every connection of that account and no other', async () => {
    server = await startServer();
    const first = await connect('token-a1');
    const second = await connect('token-a1b');
    const other = await connect('token-b2');
    const [firstEvents, secondEvents, otherEvents] = [first, second, other].map(recordEvents);

    await server.hub.publishToAccount(1, 'MessageReceived', { text: 'hi' }, 'Contact:1');
    await server.hub.publishToAccount(2, 'ForAccount2', null, 'Contact:2');
    await waitFor(() => firstEvents!.length === 1 && secondEvents!.length === 1 && otherEvents!.length === 1);

    const expected = { eventName: 'MessageReceived', data: { text: 'hi' }, entityKey: 'Contact:1' };
    expect(firstEvents).toEqual([expected]);
    expect(secondEvents).toEqual([expected]);
    expect(otherEvents).toEqual([{ eventName: 'ForAccount2', data: null, entityKey: 'Contact:2' }]);
  });

  it('refuses an invalid token at negotiate', async () => {
    server = await startServer();
    const client = buildClient(server.hubUrl, 'not-a-token', transport);
    clients.push(client);
    await expect(client.start()).rejects.toThrow(/401/);
    expect(server.hub.connectionCount()).toBe(0);
  });

  it('disconnectToken closes the connections of that token only, and the token cannot reconnect', async () => {
    server = await startServer();
    const revoked = await connect('token-a1');
    const survivor = await connect('token-a1b');
    const closed = closedPromise(revoked);
    const survivorEvents = recordEvents(survivor);

    const tokenId = server.tokens.get('token-a1')!.tokenId;
    server.tokens.delete('token-a1'); // what the auth server does on revocation
    await server.hub.disconnectToken(tokenId);

    const error = await closed;
    expect(error?.message).toMatch(/Token revoked/);
    expect(revoked.state).toBe(HubConnectionState.Disconnected);
    await expect(connect('token-a1')).rejects.toThrow(/401/);

    await server.hub.publishToAccount(1, 'StillHere', null, 'Contact:1');
    await waitFor(() => survivorEvents.length === 1);
    expect(survivor.state).toBe(HubConnectionState.Connected);
    expect(server.hub.connectionCount()).toBe(1);
  });

  it('closing the Fastify app alone ends every connection instead of waiting on it', async () => {
    server = await startServer();
    const client = await connect('token-a1');
    const closed = closedPromise(client);
    await server.app.close();
    const error = await closed;
    expect(server.hub.connectionCount()).toBe(0);
    // A long-polling client's follow-up poll meets the closing server, so only WebSockets closes cleanly.
    if (transport === HttpTransportType.WebSockets) expect(error).toBeUndefined();
  });

  it('closing the hub tells clients to close', async () => {
    server = await startServer();
    const client = await connect('token-a1');
    const closed = closedPromise(client);
    await server.hub.close();
    expect(await closed).toBeUndefined();
    expect(server.hub.connectionCount()).toBe(0);
  });
});
