import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpTransportType, HubConnectionBuilder, LogLevel } from '@microsoft/signalr';
import { api, createTestDatabase, login } from '../../../harness/test-server.ts';
import { startServerProcess, type ServerProcess } from '../../../harness/server-process.ts';

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let a: ServerProcess;
let b: ServerProcess;

beforeAll(async () => {
  database = await createTestDatabase();
  // One after the other: the first applies the migrations and the seed, the second finds them done.
  a = await startServerProcess({ DATABASE_URL: database.url, REDIS_URL });
  b = await startServerProcess({ DATABASE_URL: database.url, REDIS_URL });
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await database?.drop();
});

describe('two server processes sharing Redis', () => {
  it('deliver an event raised in one process to a hub connection held by the other', async () => {
    // Signed in at A, connected to B: both share keys and data through the database.
    const { access_token } = await login(a.url, 'demo', 'demo-losenord');
    const detail = await api(b.url, '/portal/features/contacts/contactsapplicationfeature-id/detail', {
      token: access_token,
    });
    const id = (detail.body as { info: { contact: { id: number } } }).info.contact.id;
    const connection = new HubConnectionBuilder()
      .withUrl(`${b.url}/hubs/portalaccountevents`, {
        transport: HttpTransportType.WebSockets,
        accessTokenFactory: () => access_token,
      })
      .configureLogging(LogLevel.None)
      .build();
    await connection.start();
    await connection.invoke('SubscribeToEntity', `Contact:${id}`);
    const received = new Promise<string>((resolve) =>
      connection.on('SendEvent', (name: string, _data: unknown, key: string) => resolve(`${name} ${key}`)),
    );
    const update = await api(a.url, '/portal/features/contacts/contactsapplicationfeature-id/update', {
      token: access_token,
      body: { name: 'Solen' },
    });
    expect(update.status).toBe(200);
    expect(await received).toBe(`Contact.Updated Contact:${id}`);

    // A revocation at A closes the connection held by B.
    const closed = new Promise<void>((resolve) => connection.onclose(() => resolve()));
    await fetch(`${a.url}/connect/revocation`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: access_token, client_id: 'portal-web' }),
    });
    await closed;
  });
});
