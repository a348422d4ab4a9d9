import { afterEach, describe, expect, it } from 'vitest';
import { HttpTransportType } from '@microsoft/signalr';
import type { HubConnection } from '@microsoft/signalr';
import { RS, buildClient, startServer, stopServer, waitFor } from './helpers.ts';
import type { TestServer } from './helpers.ts';
import { HUB_PATH } from '../../../contract/hub.ts';

/** Negotiate and long polling as plain HTTP, plus the official client's reaction to a revoked token. */
describe('negotiate and long polling over HTTP', () => {
  let server: TestServer | undefined;
  const clients: HubConnection[] = [];
  const aborts: AbortController[] = [];

  afterEach(async () => {
    aborts.splice(0).forEach((a) => a.abort());
    await Promise.all(clients.splice(0).map((c) => c.stop()));
    await stopServer(server);
    server = undefined;
  });

  const request = (method: string, query: string, token: string | null, body?: string) => {
    const abort = new AbortController();
    aborts.push(abort);
    return fetch(`${server!.hubUrl}${query}`, {
      method,
      body,
      signal: abort.signal,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body ? { 'content-type': 'text/plain;charset=UTF-8' } : {}),
      },
    });
  };

  const negotiate = async (token = 'token-a1') => {
    const response = await request('POST', '/negotiate?negotiateVersion=1', token);
    expect(response.status).toBe(200);
    return (await response.json()) as Record<string, unknown> & { connectionToken: string };
  };

  const records = (text: string) =>
    text
      .split(RS)
      .filter(Boolean)
      .map((r) => JSON.parse(r) as unknown);

  /** A fresh server with one negotiated long-polling connection, and that connection's `?id=` query. */
  const newConnection = async () => {
    const started = await startServer();
    server = started;
    const { connectionToken } = await negotiate();
    return { started, id: `?id=${connectionToken}` };
  };

  /** A new connection whose first poll is made and whose JSON handshake is sent and answered. */
  const handshakenConnection = async () => {
    const connection = await newConnection();
    const id = connection.id;
    await request('GET', id, 'token-a1');
    await request('POST', id, 'token-a1', JSON.stringify({ protocol: 'json', version: 1 }) + RS);
    expect(records(await (await request('GET', id, 'token-a1')).text())).toEqual([{}]);
    return connection;
  };

  it('negotiates version 1 with WebSockets and LongPolling, and refuses a request without a valid token', async () => {
    server = await startServer();
    expect((await request('POST', '/negotiate?negotiateVersion=1', null)).status).toBe(401);
    expect((await request('POST', '/negotiate?negotiateVersion=1', 'nope')).status).toBe(401);
    const body = await negotiate();
    expect(body).toEqual({
      negotiateVersion: 1,
      connectionId: expect.any(String),
      connectionToken: expect.any(String),
      availableTransports: [
        { transport: 'WebSockets', transferFormats: ['Text'] },
        { transport: 'LongPolling', transferFormats: ['Text'] },
      ],
    });
    expect(body.connectionToken).not.toBe(body.connectionId);
    expect(body.connectionToken.length).toBeGreaterThanOrEqual(32);
  });

  it('answers the first poll at once, then carries the handshake and completions of a multi-record POST', async () => {
    const { started, id } = await newConnection();
    const first = await request('GET', id, 'token-a1');
    expect([first.status, await first.text()]).toEqual([200, '']);
    expect(started.hub.connectionCount()).toBe(1);

    const poll = request('GET', id, 'token-a1');
    const handshakeAndInvocation =
      JSON.stringify({ protocol: 'json', version: 1 }) +
      RS +
      JSON.stringify({ type: 1, invocationId: '7', target: 'SubscribeToEntity', arguments: ['Contact:1'] }) +
      RS;
    expect((await request('POST', id, 'token-a1', handshakeAndInvocation)).status).toBe(200);

    const received: unknown[] = records(await (await poll).text());
    while (received.length < 2)
      received.push(...records(await (await request('GET', id, 'token-a1')).text()));
    expect(received).toEqual([{}, { type: 3, invocationId: '7', result: null }]);
  });

  it('checks the token and account on every request', async () => {
    const { id } = await newConnection();
    expect((await request('GET', id, null)).status).toBe(401);
    expect((await request('GET', id, 'token-b2')).status).toBe(403);
    expect((await request('GET', '?id=unknown', 'token-a1')).status).toBe(404);
    expect((await request('GET', id, 'token-a1')).status).toBe(200);
    expect((await request('POST', id, 'nope', '{"type":6}' + RS)).status).toBe(401);
    expect((await request('DELETE', id, 'token-b2')).status).toBe(403);
  });

  it('DELETE ends a held poll with 204, and later polls get 204', async () => {
    const { started, id } = await newConnection();
    await request('GET', id, 'token-a1');
    const held = request('GET', id, 'token-a1');
    expect((await request('DELETE', id, 'token-a1')).status).toBe(202);
    expect((await held).status).toBe(204);
    expect((await request('GET', id, 'token-a1')).status).toBe(204);
    expect(started.hub.connectionCount()).toBe(0);
  });

  it('a server-side close reaches the poll as a Close record, then the poll gets 204', async () => {
    const { started, id } = await handshakenConnection();
    const held = request('GET', id, 'token-a1');
    await started.hub.disconnectToken(started.tokens.get('token-a1')!.tokenId);
    expect(records(await (await held).text())).toEqual([{ type: 7, error: 'Token revoked' }]);
    expect((await request('GET', id, 'token-a1')).status).toBe(204);
  });

  it('closes a connection whose unread messages pass the queue limit, telling it to reconnect', async () => {
    const { started, id } = await handshakenConnection();
    const chunk = 'x'.repeat(300 * 1024);
    for (let i = 0; i < 4; i += 1) await started.hub.publishToAccount(1, 'Big', chunk, 'Contact:1');
    expect(started.hub.connectionCount()).toBe(0);
    expect(records(await (await request('GET', id, 'token-a1')).text())).toEqual([
      { type: 7, error: expect.any(String), allowReconnect: true },
    ]);
  });

  it("keeps the hub's text body parser out of the app's other routes", async () => {
    server = await startServer({}, undefined, (app) => {
      app.post('/echo', async (req) => ({ parsed: typeof req.body === 'object', body: req.body }));
    });
    const response = await fetch(`${server.baseUrl}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(await response.json()).toEqual({ parsed: true, body: { a: 1 } });
  });

  it('a revoked token stops the official client at its next request', async () => {
    server = await startServer({ keepAliveIntervalMs: 50, clientTimeoutMs: 300 });
    const client = buildClient(server.hubUrl, 'token-a1', HttpTransportType.LongPolling);
    clients.push(client);
    const closed = new Promise<Error | undefined>((resolve) => client.onclose(resolve));
    await client.start();

    server.tokens.delete('token-a1'); // no disconnectToken: the per-request check alone must end it
    const error = await closed;
    expect(String(error)).toMatch(/401|Unauthorized/);
    // The client can no longer say goodbye (its DELETE is refused too); the server times the connection out.
    await waitFor(() => server!.hub.connectionCount() === 0);
  });

  it('keeps an idle official client on long polling connected: every poll counts as life', async () => {
    // The official client sends no pings over long polling (its transport keeps itself alive), so a
    // child whose network blocks WebSockets only ever polls: the server's pings (15 s) end each held
    // poll (at most 90 s), and it drops a client silent for 30 s. The same shape on a shorter clock,
    // pings 0.25 s, client timeout 0.5 s, polls held 1.5 s, through eight answered polls: the
    // client sends nothing else all the while. (It fails with the poll not counted as life.)
    const pollTimeoutMs = 1_500;
    let answeredPolls = 0;
    server = await startServer(
      { pollTimeoutMs, clientTimeoutMs: 500, keepAliveIntervalMs: 250 },
      undefined,
      (app) =>
        app.addHook('onResponse', async (request, reply) => {
          if (request.method === 'GET' && request.url.startsWith(HUB_PATH) && reply.statusCode === 200)
            answeredPolls += 1;
        }),
    );
    const client = buildClient(server.hubUrl, 'token-a1', HttpTransportType.LongPolling);
    clients.push(client);
    let closedWith: Error | undefined | null = null;
    client.onclose((error) => (closedWith = error));
    const received: string[] = [];
    client.on('SendEvent', (name: string) => received.push(name));
    await client.start();
    await client.invoke('SubscribeToEntity', 'Contact:1');

    const from = answeredPolls;
    await waitFor(() => answeredPolls >= from + 8, 10 * pollTimeoutMs);
    expect(closedWith).toBeNull();
    expect(client.state).toBe('Connected');
    expect(server.hub.connectionCount()).toBe(1);
    await server.hub.publishToEntity('Contact:1', 'Contact.Updated', { id: 1 });
    await waitFor(() => received.includes('Contact.Updated'));
  });
});
