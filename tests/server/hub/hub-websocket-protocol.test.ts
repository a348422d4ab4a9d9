import { afterEach, describe, expect, it } from 'vitest';
import { RS, RawClient, startServer, stopServer, waitFor } from './helpers.ts';
import type { TestServer } from './helpers.ts';

/** The wire protocol over a raw WebSocket, record by record. */
describe('hub protocol over a raw WebSocket', () => {
  let server: TestServer | undefined;
  const sockets: RawClient[] = [];

  const open = (query = '', headers: Record<string, string> = { authorization: 'Bearer token-a1' }) => {
    const client = new RawClient(server!.wsUrl + query, headers);
    sockets.push(client);
    return client;
  };

  const negotiate = async (token: string) => {
    const response = await fetch(`${server!.hubUrl}/negotiate?negotiateVersion=1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    return (await response.json()) as { connectionToken: string; connectionId: string };
  };

  afterEach(async () => {
    sockets.splice(0).forEach((s) => s.close());
    await stopServer(server);
    server = undefined;
  });

  it('answers the handshake with {} and each invocation id with exactly one Completion', async () => {
    server = await startServer();
    const client = open();
    expect(await client.opened()).toBe(101);
    client.send(
      { protocol: 'json', version: 1 },
      { type: 1, invocationId: '1', target: 'SubscribeToEntity', arguments: ['Contact:1'] },
      { type: 1, target: 'SendMessage', arguments: ['no id, no answer'] },
      { type: 1, invocationId: '2', target: 'SubscribeToEntity', arguments: ['Contact:2'] },
      { type: 1, invocationId: '3', target: 'SENDMESSAGE', arguments: [] },
    );
    await waitFor(() => client.records.length >= 4);
    // Invocations run in order, so a Completion for the id-less send would have come before id 2's.
    expect(client.records[0]).toBe('{}');
    expect(client.messages().slice(1)).toEqual([
      { type: 3, invocationId: '1', result: null },
      { type: 3, invocationId: '2', error: 'Forbidden' },
      { type: 3, invocationId: '3', result: null },
    ]);
  });

  it('sends events as an Invocation of SendEvent without invocationId', async () => {
    server = await startServer();
    const client = open();
    await client.opened();
    await client.handshake();
    client.send({ type: 1, invocationId: 'a', target: 'SubscribeToEntity', arguments: ['Contact:1'] });
    await waitFor(() => client.records.length === 2);
    await server.hub.publishToEntity('Contact:1', 'ContactChanged', { n: 1 });
    await waitFor(() => client.records.length === 3);
    expect(client.records[2]).toBe(
      '{"type":1,"target":"SendEvent","arguments":["ContactChanged",{"n":1},"Contact:1"]}',
    );
  });

  it('refuses a protocol other than json with an error record and closes', async () => {
    server = await startServer();
    const client = open();
    await client.opened();
    client.send({ protocol: 'messagepack', version: 1 });
    await waitFor(() => client.closed);
    expect(client.messages()).toEqual([{ error: expect.stringContaining('messagepack') }]);
  });

  it('accepts the version 2 handshake the current client sends', async () => {
    server = await startServer();
    const client = open();
    await client.opened();
    client.send({ protocol: 'json', version: 2 });
    await waitFor(() => client.records.length === 1);
    expect(client.records).toEqual(['{}']);
  });

  it('pings every keepAliveIntervalMs', async () => {
    server = await startServer({ keepAliveIntervalMs: 30 });
    const client = open();
    await client.opened();
    await client.handshake();
    await waitFor(() => client.records.length >= 3);
    expect(client.messages().slice(1, 3)).toEqual([{ type: 6 }, { type: 6 }]);
  });

  it('drops a client that sends nothing for clientTimeoutMs, and keeps one that pings', async () => {
    server = await startServer({ keepAliveIntervalMs: 40, clientTimeoutMs: 200 });
    const silent = open();
    const pinging = open('', { authorization: 'Bearer token-a1b' });
    await Promise.all([silent.opened(), pinging.opened()]);
    await Promise.all([silent.handshake(), pinging.handshake()]);
    pinging.socket.on('message', () => pinging.send({ type: 6 })); // answers each server ping
    await waitFor(() => silent.closed);
    expect(silent.messages().at(-1)).toEqual({ type: 7, error: expect.any(String) });
    // Still open after outliving the timeout several times over (each ping arrives 40 ms apart).
    await waitFor(() => pinging.records.length >= 15);
    expect(pinging.closed).toBe(false);
    expect(server.hub.connectionCount()).toBe(1);
  });

  it('closes the connection on a message that is not valid protocol', async () => {
    server = await startServer();
    const client = open();
    await client.opened();
    await client.handshake();
    client.socket.send('not json' + RS);
    await waitFor(() => client.closed);
    expect(client.messages().at(-1)).toMatchObject({ type: 7, error: expect.any(String) });
    await waitFor(() => server!.hub.connectionCount() === 0);
  });

  it('accepts the token as access_token in the query (browsers cannot set headers)', async () => {
    server = await startServer();
    const { connectionToken } = await negotiate('token-a1');
    const client = open(`?id=${connectionToken}&access_token=token-a1`, {});
    expect(await client.opened()).toBe(101);
    await client.handshake();
    expect(client.records).toEqual(['{}']);
    expect(server.hub.connectionCount()).toBe(1);
  });

  it('refuses upgrades: no token 401, bad token 401, unknown id 404, other account 403, bound id 409', async () => {
    server = await startServer();
    expect(await open('', {}).opened()).toBe(401);
    expect(await open('', { authorization: 'Bearer nope' }).opened()).toBe(401);
    expect(await open('?id=unknown').opened()).toBe(404);
    const { connectionToken } = await negotiate('token-a1');
    expect(await open(`?id=${connectionToken}`, { authorization: 'Bearer token-b2' }).opened()).toBe(403);
    // Another token of the same account is the same identity, as after a token refresh.
    expect(await open(`?id=${connectionToken}`, { authorization: 'Bearer token-a1b' }).opened()).toBe(101);
    expect(await open(`?id=${connectionToken}`).opened()).toBe(409);
  });

  it('closes on a binary frame', async () => {
    server = await startServer();
    const client = open();
    await client.opened();
    await client.handshake();
    client.socket.send(Buffer.from('{"type":6}' + RS), { binary: true });
    await waitFor(() => client.closed);
    expect(server.hub.connectionCount()).toBe(0);
  });
});
