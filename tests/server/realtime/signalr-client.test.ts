import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  HttpTransportType,
  HubConnectionBuilder,
  HubConnectionState,
  LogLevel,
  type HubConnection,
} from '@microsoft/signalr';
import { SignJWT } from 'jose';
import { api, login, startTestServer, type TestServer } from '../../../harness/test-server.ts';

let server: TestServer;
const open: HubConnection[] = [];
beforeAll(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.stop()));
});
afterAll(async () => server.dispose());

const DETAIL = '/portal/features/contacts/contactsapplicationfeature-id/detail';
const UPDATE = '/portal/features/contacts/contactsapplicationfeature-id/update';

function connect(token: () => string, transport: HttpTransportType) {
  const connection = new HubConnectionBuilder()
    .withUrl(`${server.url}/hubs/portalaccountevents`, { transport, accessTokenFactory: token })
    .configureLogging(LogLevel.None)
    .build();
  open.push(connection);
  return connection;
}

function nextEvent(connection: HubConnection, name: string) {
  return new Promise<{ data: unknown; entityKey: string }>((resolve) => {
    connection.on('SendEvent', (eventName: string, data: unknown, entityKey: string) => {
      if (eventName === name) resolve({ data, entityKey });
    });
  });
}

async function contactId(token: string) {
  const res = await api(server.url, DETAIL, { token });
  return (res.body as { info: { contact: { id: number } } }).info.contact.id;
}

describe.each([
  ['WebSockets', HttpTransportType.WebSockets],
  ['LongPolling', HttpTransportType.LongPolling],
])('the official SignalR client over %s', (_name, transport) => {
  it('connects, subscribes and receives the SendEvent of a server-side change', async () => {
    const { access_token } = await login(server.url, 'demo', 'demo-losenord');
    const id = await contactId(access_token);
    const connection = connect(() => access_token, transport);
    await connection.start();
    expect(connection.state).toBe(HubConnectionState.Connected);
    await connection.invoke('SubscribeToEntity', `Contact:${id}`);
    const received = nextEvent(connection, 'Contact.Updated');
    await api(server.url, UPDATE, { token: access_token, body: { name: 'Solen' } });
    expect(await received).toEqual({ data: { id }, entityKey: `Contact:${id}` });
  });

  it('refuses a subscription to an entity the user may not see', async () => {
    const { access_token } = await login(server.url, 'demo', 'demo-losenord');
    const other = await contactId((await login(server.url, 'DEMOKOD-0001')).access_token);
    const connection = connect(() => access_token, transport);
    await connection.start();
    await expect(connection.invoke('SubscribeToEntity', `Contact:${other}`)).rejects.toThrow();
    await expect(connection.invoke('SubscribeToEntity', 'Meeting:999999')).rejects.toThrow();
    expect(connection.state).toBe(HubConnectionState.Connected);
  });
});

describe('tokens at the hub', () => {
  it('refuses a connection without a valid token', async () => {
    await expect(connect(() => 'not-a-token', HttpTransportType.WebSockets).start()).rejects.toThrow();
    await expect(connect(() => '', HttpTransportType.LongPolling).start()).rejects.toThrow();
  });

  it('closes the connection when its token is revoked and refuses it on reconnect', async () => {
    const { access_token } = await login(server.url, 'demo', 'demo-losenord');
    const connection = connect(() => access_token, HttpTransportType.WebSockets);
    await connection.start();
    const closed = new Promise<void>((resolve) => connection.onclose(() => resolve()));
    const res = await fetch(`${server.url}/connect/revocation`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        token: access_token,
        token_type_hint: 'access_token',
        client_id: 'portal-web',
      }),
    });
    expect(res.status).toBe(200);
    await closed;
    await expect(connection.start()).rejects.toThrow();
  });

  it('refuses an expired token on reconnect', async () => {
    const { access_token } = await login(server.url, 'demo', 'demo-losenord');
    const fresh = connect(() => access_token, HttpTransportType.WebSockets);
    await fresh.start();
    await fresh.stop();
    // An expired token signed with the server's own key: only the expiry is wrong.
    const key = server.ctx.keys.current.signing;
    const past = Math.floor(Date.now() / 1000) - 3600;
    const expired = await new SignJWT({ contact_id: 1, role: ['child'], client_id: 'portal-web', gen: 0 })
      .setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'at+jwt' })
      .setIssuer(server.url)
      .setSubject('1')
      .setAudience('portal')
      .setJti('expired-token')
      .setIssuedAt(past - 900)
      .setExpirationTime(past)
      .sign(key.privateKey);
    await expect(connect(() => expired, HttpTransportType.WebSockets).start()).rejects.toThrow();
    await expect(connect(() => expired, HttpTransportType.LongPolling).start()).rejects.toThrow();
  });

  it('counts open connections in /metrics', async () => {
    const { access_token } = await login(server.url, 'demo', 'demo-losenord');
    const a = connect(() => access_token, HttpTransportType.WebSockets);
    const b = connect(() => access_token, HttpTransportType.LongPolling);
    await Promise.all([a.start(), b.start()]);
    const text = await (await fetch(`${server.url}/metrics`)).text();
    expect(text).toMatch(/^hub_connections 2$/m);
  });
});
