import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { api, login, postWithKey, startTestServer, type TestServer } from '../../../harness/test-server.ts';
import type { Conversation, ConversationMessageWire } from '../../../contract/conversations.ts';
import { cancelAbandonedChats } from '../../../server/jobs/abandoned-chats.ts';

let server: TestServer;
let counsellor: string;
const CONV = '/portal/features/conversations/conversationsapplication-id';

beforeAll(async () => {
  server = await startTestServer();
  counsellor = (await login(server.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token;
});
afterAll(async () => server.dispose());

async function newChild(username: string) {
  const res = await api(server.url, '/portal/api/accounts/registercontact', {
    body: { username, password: 'blå-ballong-73' },
  });
  expect(res.status).toBe(201);
  return (await login(server.url, username, 'blå-ballong-73')).access_token;
}
const position = async (token: string, id: number) =>
  (
    (await api(server.url, `${CONV}/queuePosition?conversation=${id}&channel=1`, { token })).body as {
      queuePosition: number | null;
    }
  ).queuePosition;

describe('one-to-one chat', () => {
  it('queues children in arrival order, lets a counsellor accept, carries messages both ways and resolves', async () => {
    const first = await newChild('barn-ett');
    const second = await newChild('barn-tva');
    const a = (
      await api(server.url, '/portal/chat', {
        token: first,
        body: {
          subject: 'Chatt',
          text: '',
          properties: { age: '14', gender: 'female', device: 'Mobile, Android, PWA: Nej' },
        },
      })
    ).body as unknown as Conversation;
    const b = (await api(server.url, '/portal/chat', { token: second, body: { subject: 'Chatt', text: '' } }))
      .body as unknown as Conversation;
    expect(a.state).toBe('New');
    expect(await position(first, a.id)).toBe(1);
    expect(await position(second, b.id)).toBe(2);

    const queue = (
      (await api(server.url, '/portal/staff/queue', { token: counsellor })).body as {
        value: Array<Conversation & { properties: Record<string, string> }>;
      }
    ).value;
    expect(queue.map((c) => c.id).slice(-2)).toEqual([a.id, b.id]);
    expect(queue.find((c) => c.id === a.id)?.properties).toEqual({
      age: '14',
      gender: 'female',
      device: 'Mobile, Android, PWA: Nej',
    });

    expect(
      (await api(server.url, `/portal/staff/conversations/${a.id}/accept`, { token: counsellor, body: {} }))
        .status,
    ).toBe(200);
    expect(await position(second, b.id)).toBe(1);
    await api(server.url, `/portal/staff/conversations/${a.id}/messages`, {
      token: counsellor,
      body: { content: 'Hej! Vad vill du prata om?' },
    });
    await api(server.url, '/portal/conversationmessage', {
      token: first,
      body: { content: 'Om skolan', conversation: a.id },
    });
    const messages = (
      (
        await api(server.url, `${CONV}/messages?take=9999&conversation=${a.id}&selection=mine`, {
          token: first,
        })
      ).body as { value: ConversationMessageWire[] }
    ).value;
    expect(messages.map((m) => [m.authorKind, m.message])).toEqual([
      ['agent', 'Hej! Vad vill du prata om?'],
      ['contact', 'Om skolan'],
    ]);

    expect(
      (await api(server.url, `/portal/staff/conversations/${a.id}/resolve`, { token: counsellor, body: {} }))
        .status,
    ).toBe(200);
    const after = (
      (await api(server.url, `${CONV}/conversations?take=9999&skip=0&selection=resolved`, { token: first }))
        .body as { value: Conversation[] }
    ).value;
    expect(after.map((c) => [c.id, c.state])).toEqual([[a.id, 'Resolved']]);
    const status = await api(server.url, '/portal/chatAccountStatus', { token: first });
    expect(status).toMatchObject({ status: 409, body: { status: 'HasCompletedAConversation' } });
    const again = await api(server.url, '/portal/chat', { token: first, body: { subject: 'Igen' } });
    expect(again.status).toBe(409);
    expect((await api(server.url, '/portal/chatAccountStatus', { token: second })).body).toMatchObject({
      status: 'HasActive',
    });
  });

  it('lets a child leave the queue, rate and delete a chat, erasing its content', async () => {
    const child = await newChild('barn-tre');
    const chat = (await api(server.url, '/portal/chat', { token: child, body: { subject: 'Chatt' } }))
      .body as unknown as Conversation;
    await api(server.url, '/portal/conversationmessage', {
      token: child,
      body: { content: 'Hemlig text', conversation: chat.id },
    });
    expect(
      (
        await api(server.url, `${CONV}/cancel`, {
          method: 'PUT',
          token: child,
          body: { conversation: chat.id, reason: 'Borttagen av barnet' },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await api(server.url, `${CONV}/rate`, {
          method: 'PUT',
          token: child,
          body: { conversation: chat.id, rating: 5 },
        })
      ).status,
    ).toBe(200);
    expect(
      (await api(server.url, `${CONV}/conversations?conversation=${chat.id}`, { token: child })).body,
    ).toMatchObject({ value: [{ rating: 5, state: 'Cancelled' }] });

    expect(
      (
        await api(server.url, `${CONV}/delete`, {
          method: 'PUT',
          token: child,
          body: { conversation: chat.id },
        })
      ).status,
    ).toBe(200);
    const stored = await server.ctx.db
      .selectFrom('conversation_messages')
      .select(['message', 'contact_id'])
      .where('conversation_id', '=', chat.id)
      .execute();
    expect(stored).toEqual([{ message: '', contact_id: null }]);
    const conversation = await server.ctx.db
      .selectFrom('conversations')
      .select('contact_id')
      .where('id', '=', chat.id)
      .executeTakeFirstOrThrow();
    expect(conversation.contact_id).toBeNull();
    expect((await api(server.url, `${CONV}/conversations?selection=mine`, { token: child })).body).toEqual({
      value: [],
    });
  });

  it('cancels a queued chat whose owner has not pinged for 5 minutes', async () => {
    const child = await newChild('barn-fyra');
    const chat = (await api(server.url, '/portal/chat', { token: child, body: { subject: 'Chatt' } }))
      .body as unknown as Conversation;
    await server.ctx.db
      .updateTable('conversations')
      .set({ last_contact_ping_date: new Date(Date.now() - 6 * 60_000).toISOString() })
      .where('id', '=', chat.id)
      .execute();
    expect(await cancelAbandonedChats(server.ctx)).toBeGreaterThanOrEqual(1);
    expect(
      (await api(server.url, `${CONV}/conversations?conversation=${chat.id}`, { token: child })).body,
    ).toMatchObject({ value: [{ state: 'Cancelled' }] });
  });

  it('answers mail with a notification for the child', async () => {
    const child = await newChild('barn-fem');
    const mail = (
      await api(server.url, '/portal/mail', {
        token: child,
        body: { subject: 'Fråga', text: 'Hur gör jag?' },
      })
    ).body as unknown as Conversation;
    expect(mail.systemType).toBe('mail');
    await api(server.url, `/portal/staff/conversations/${mail.id}/messages`, {
      token: counsellor,
      body: { content: 'Så här gör du.' },
    });
    const count = (
      await api(server.url, '/portal/api/notifications/count?isProcessed=false', { token: child })
    ).body as { value: Array<{ count: number }> };
    expect(count.value.reduce((n, i) => n + i.count, 0)).toBe(1);
    const list = (
      await api(server.url, '/portal/api/notifications?isProcessed=false&take=1000', { token: child })
    ).body as { value: Array<{ id: number; entity: string }> };
    expect(list.value[0]?.entity).toBe(`Conversation:${mail.id}`);
    await api(server.url, '/portal/api/notifications/process', {
      token: child,
      body: { id: list.value[0]!.id },
    });
    const after = (
      await api(server.url, '/portal/api/notifications/count?isProcessed=false', { token: child })
    ).body as { value: Array<{ count: number }> };
    expect(after.value.reduce((n, i) => n + i.count, 0)).toBe(0);
  });

  it('keeps one child’s conversations from another child and staff routes from children', async () => {
    // Registration is limited to 5 per address in 15 minutes: reuse an account of an earlier test.
    const owner = (await login(server.url, 'barn-tre', 'blå-ballong-73')).access_token;
    const other = (await login(server.url, 'demo', 'demo-losenord')).access_token;
    const chat = (await api(server.url, '/portal/chat', { token: owner, body: { subject: 'Chatt' } }))
      .body as unknown as Conversation;
    for (const [method, path, body] of [
      ['GET', `${CONV}/messages?conversation=${chat.id}`, undefined],
      ['GET', `${CONV}/queuePosition?conversation=${chat.id}`, undefined],
      ['GET', `${CONV}/conversationConnections?conversation=${chat.id}`, undefined],
      ['POST', '/portal/conversationmessage', { content: 'hej', conversation: chat.id }],
      ['PUT', `${CONV}/cancel`, { conversation: chat.id }],
      ['PUT', `${CONV}/delete`, { conversation: chat.id }],
      ['PUT', `${CONV}/rate`, { conversation: chat.id, rating: 1 }],
      ['POST', `${CONV}/activity`, { conversation: chat.id, type: 'Ping' }],
    ] as const) {
      expect((await api(server.url, path, { method, token: other, body })).status, `${method} ${path}`).toBe(
        403,
      );
      expect((await api(server.url, path, { method, body })).status, `${method} ${path} anonymous`).toBe(401);
    }
    expect(
      (await api(server.url, `${CONV}/conversations?conversation=${chat.id}`, { token: other })).body,
    ).toEqual({ value: [] });
    for (const path of ['/portal/staff/queue', `/portal/staff/conversations/${chat.id}/messages`]) {
      expect((await api(server.url, path, { token: owner })).status).toBe(403);
    }
    expect(
      (await api(server.url, `/portal/staff/conversations/${chat.id}/accept`, { token: owner, body: {} }))
        .status,
    ).toBe(403);
  });

  describe('opening a conversation when something fails halfway', () => {
    const open = (token: string, key: string, subject: string) =>
      postWithKey(server.url, '/portal/mail', {
        token,
        key,
        body: { subject, text: 'Jag vill fråga något.' },
      });
    const mailsOf = async (token: string, subject: string) =>
      (
        (await api(server.url, `${CONV}/conversations`, { token })).body as unknown as {
          value: Conversation[];
        }
      ).value.filter((c) => c.subject === subject);

    it('stores the mail with its first message or nothing, so the retry leaves one mail', async () => {
      const child = await newChild('barn-halvvags');
      const { db, dbKind } = server.ctx;
      // A real fault after the mail's row is written: stamping its first message fails, as a query
      // on a connection just cut would.
      if (dbKind === 'postgres') {
        await sql`CREATE FUNCTION fail_stamp() RETURNS trigger LANGUAGE plpgsql AS
          $$ BEGIN RAISE EXCEPTION 'fault'; END $$`.execute(db);
        await sql`CREATE TRIGGER fail_stamp BEFORE UPDATE ON conversations FOR EACH ROW
          WHEN (NEW.last_contact_message_date IS NOT NULL AND OLD.last_contact_message_date IS NULL)
          EXECUTE FUNCTION fail_stamp()`.execute(db);
      } else {
        await sql`CREATE TRIGGER fail_stamp BEFORE UPDATE ON conversations
          WHEN NEW.last_contact_message_date IS NOT NULL AND OLD.last_contact_message_date IS NULL
          BEGIN SELECT RAISE(ABORT, 'fault'); END`.execute(db);
      }
      let first: Response;
      try {
        first = await open(child, 'mail-halfway-1', 'Halvvägs');
      } finally {
        await sql`DROP TRIGGER fail_stamp${sql.raw(dbKind === 'postgres' ? ' ON conversations' : '')}`.execute(
          db,
        );
        if (dbKind === 'postgres') await sql`DROP FUNCTION fail_stamp()`.execute(db);
      }
      expect(first.status).toBe(500);
      expect(await mailsOf(child, 'Halvvägs')).toEqual([]);

      const again = await open(child, 'mail-halfway-1', 'Halvvägs');
      expect(again.status).toBe(200);
      const mails = await mailsOf(child, 'Halvvägs');
      expect(mails.map((m) => m.id)).toEqual([((await again.json()) as Conversation).id]);
      const messages = (
        (await api(server.url, `${CONV}/messages?conversation=${mails[0]!.id}`, { token: child }))
          .body as unknown as { value: ConversationMessageWire[] }
      ).value;
      expect(messages.map((m) => m.message)).toEqual(['Jag vill fråga något.']);
    });

    it('answers the retry with the mail stored before a later step failed, instead of a second mail', async () => {
      const child = await newChild('barn-efterat');
      // The announcement after the commit fails once (the hub's backplane restarting).
      const publish = vi
        .spyOn(server.ctx.hub, 'publishToAccount')
        .mockRejectedValueOnce(new Error('backplane down'));
      let first: Response;
      try {
        first = await open(child, 'mail-after-commit-1', 'Efteråt');
      } finally {
        publish.mockRestore();
      }
      expect(first.status).toBe(500);
      const again = await open(child, 'mail-after-commit-1', 'Efteråt');
      expect(again.status).toBe(200);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      const replayed = (await again.json()) as Conversation;
      expect((await mailsOf(child, 'Efteråt')).map((m) => m.id)).toEqual([replayed.id]);
    });
  });
});
