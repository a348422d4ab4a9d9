import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import { api, login, startTestServer, type TestServer } from '../../../harness/test-server.ts';
import type { Conversation } from '../../../contract/conversations.ts';

/** What the staff console (/personal) needs of the server beyond the plain staff API: a live queue. */
let server: TestServer;
let counsellor: string;
const open: HubConnection[] = [];
const CONV = '/portal/features/conversations/conversationsapplication-id';

beforeAll(async () => {
  server = await startTestServer();
  counsellor = (await login(server.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token;
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.stop()));
});
afterAll(async () => server.dispose());

let children = 0;
async function newChild() {
  const username = `konsol-barn-${++children}`;
  const res = await api(server.url, '/portal/api/accounts/registercontact', {
    body: { username, password: 'blå-ballong-73' },
  });
  expect(res.status).toBe(201);
  return (await login(server.url, username, 'blå-ballong-73')).access_token;
}

/** A counsellor's console connection that records every event it hears, without subscribing to anything. */
async function counsellorConnection() {
  const events: Array<{ name: string; data: unknown; entityKey: string }> = [];
  const connection = new HubConnectionBuilder()
    .withUrl(`${server.url}/hubs/portalaccountevents`, {
      transport: HttpTransportType.WebSockets,
      accessTokenFactory: () => counsellor,
    })
    .configureLogging(LogLevel.None)
    .build();
  connection.on('SendEvent', (name: string, data: unknown, entityKey: string) => {
    events.push({ name, data, entityKey });
  });
  open.push(connection);
  await connection.start();
  const heard = (id: number) =>
    events.some(
      (e) =>
        e.name === 'Conversation.Updated' &&
        e.entityKey === `Conversation:${id}` &&
        (e.data as { conversationId?: number }).conversationId === id,
    );
  const count = (id: number) => events.filter((e) => e.entityKey === `Conversation:${id}`).length;
  return { heard, count, total: () => events.length };
}

const queueIds = async () =>
  (
    (await api(server.url, '/portal/staff/queue', { token: counsellor })).body as {
      value: Conversation[];
    }
  ).value.map((c) => c.id);

describe('the counsellor console API', () => {
  it("labels the child's messages from the child's profile, also where no conversation properties came (Main)", async () => {
    const register = async (username: string, properties?: Record<string, string>) => {
      const res = await api(server.url, '/portal/api/accounts/registercontact', {
        body: { username, password: 'blå-ballong-73', ...(properties ? { properties } : {}) },
      });
      expect(res.status).toBe(201);
      return (await login(server.url, username, 'blå-ballong-73')).access_token;
    };
    const year = new Date().getFullYear();
    const girl = await register('etikett-tjej', { birthYear: String(year - 14), gender: 'female' });
    const unknown = await register('etikett-okand');
    const mail = async (token: string) =>
      // As the main app writes: without conversation properties.
      (
        (await api(server.url, '/portal/mail', { token, body: { subject: 'Etikett', text: 'Hej' } }))
          .body as {
          id: number;
        }
      ).id;
    const [girlsMail, unknownsMail] = [await mail(girl), await mail(unknown)];
    const items = (
      (await api(server.url, '/portal/staff/queue', { token: counsellor })).body as {
        value: { id: number; properties: Record<string, string>; authorLabel: string }[];
      }
    ).value;
    expect(items.find((i) => i.id === girlsMail)).toMatchObject({
      properties: {},
      authorLabel: 'Tjej, 14 år',
    });
    expect(items.find((i) => i.id === unknownsMail)?.authorLabel).toBe('Vill inte välja');
  });

  it('announces a new chat and a new mail to counsellors without any subscription', async () => {
    const hub = await counsellorConnection();
    const child = await newChild();
    const chat = (await api(server.url, '/portal/chat', { token: child, body: { subject: 'Chatt' } }))
      .body as unknown as Conversation;
    await expect.poll(() => hub.heard(chat.id)).toBe(true);
    const mail = (
      await api(server.url, '/portal/mail', { token: child, body: { subject: 'Fråga', text: 'Hej!' } })
    ).body as unknown as Conversation;
    await expect.poll(() => hub.heard(mail.id)).toBe(true);
  });

  it('announces a child leaving the queue, and accepting, so every console drops it', async () => {
    const child = await newChild();
    const leaving = (await api(server.url, '/portal/chat', { token: child, body: { subject: 'Chatt' } }))
      .body as unknown as Conversation;
    const hub = await counsellorConnection();
    const cancel = await api(server.url, `${CONV}/cancel`, {
      method: 'PUT',
      token: child,
      body: { conversation: leaving.id, reason: 'Lämnade kön' },
    });
    expect(cancel.status).toBe(200);
    await expect.poll(() => hub.heard(leaving.id)).toBe(true);
    expect(await queueIds()).not.toContain(leaving.id);

    const other = await newChild();
    const accepted = (
      await api(server.url, '/portal/chat', {
        token: other,
        body: { subject: 'Chatt', properties: { age: '15', gender: 'female' } },
      })
    ).body as unknown as Conversation;
    await expect.poll(() => hub.heard(accepted.id)).toBe(true);
    const before = hub.count(accepted.id);
    const res = await api(server.url, `/portal/staff/conversations/${accepted.id}/accept`, {
      token: counsellor,
      body: {},
    });
    expect(res.status).toBe(200);
    await expect.poll(() => hub.count(accepted.id)).toBeGreaterThan(before);
    expect(await queueIds()).not.toContain(accepted.id);
    // The accepted chat is the counsellor's now, still with the child's properties for the console.
    const mine = (
      (await api(server.url, '/portal/staff/conversations', { token: counsellor })).body as {
        value: Array<Conversation & { properties: Record<string, string> }>;
      }
    ).value.find((c) => c.id === accepted.id);
    expect(mine).toMatchObject({ state: 'InProgress', properties: { age: '15', gender: 'female' } });

    // A refused call announces nothing: a second chat while one is open answers 409. Events reach
    // one connection in order, so once the later cancellation is heard, nothing else came before it.
    const counted = hub.count(accepted.id);
    const refused = await api(server.url, '/portal/chat', { token: other, body: { subject: 'Chatt' } });
    expect(refused.status).toBe(409);
    const third = (await api(server.url, '/portal/chat', { token: child, body: { subject: 'Chatt' } }))
      .body as unknown as Conversation;
    await expect.poll(() => hub.heard(third.id)).toBe(true);
    expect(hub.count(accepted.id)).toBe(counted);
    expect(hub.total()).toBe(hub.count(leaving.id) + hub.count(accepted.id) + hub.count(third.id));
  });

  it('keeps mail in the queue until answered, and brings it back when the child writes again', async () => {
    const child = await newChild();
    const mail = (
      await api(server.url, '/portal/mail', { token: child, body: { subject: 'Fråga', text: 'Hej!' } })
    ).body as unknown as Conversation;
    expect(await queueIds()).toContain(mail.id);

    const hub = await counsellorConnection();
    const answer = await api(server.url, `/portal/staff/conversations/${mail.id}/messages`, {
      token: counsellor,
      body: { content: 'Hej, tack för ditt meddelande.' },
    });
    expect(answer.status).toBe(201);
    await expect.poll(() => hub.heard(mail.id)).toBe(true);
    expect(await queueIds()).not.toContain(mail.id);

    const before = hub.count(mail.id);
    const again = await api(server.url, '/portal/conversationmessage', {
      token: child,
      body: { conversation: mail.id, content: 'En fråga till.' },
    });
    expect(again.status).toBe(201);
    await expect.poll(() => hub.count(mail.id)).toBeGreaterThan(before);
    expect(await queueIds()).toContain(mail.id);
  });
});
