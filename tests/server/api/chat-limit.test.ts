import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import type { Conversation, ConversationMessageWire } from '../../../contract/conversations.ts';
import { CHAT_DAILY_LIMIT_MS } from '../../../contract/limits.ts';
import {
  CHAT_LIMIT_REACHED_TEXT,
  endChatsPastLimit,
  startChatClock,
  stockholmDayStart,
} from '../../../server/conversations/chat-limit.ts';
import {
  api,
  claimsOf,
  createTestDatabase,
  login,
  startTestServer,
  type TestServer,
  postWithKey,
} from '../../../harness/test-server.ts';
import { openDatabase } from '../../../server/db/database.ts';
import { sql } from 'kysely';
import { loadConfig } from '../../../server/config.ts';
import { PRODUCTION_ENV } from '../../../harness/server-process.ts';
import { conversationRow } from '../../../server/conversations/writes.ts';

/**
 * SPEC §9 "Chat limited to 45 minutes once per day": the server ends a live one-to-one
 * chat when the child's day's chat time is up. The sweep takes the time it runs at, so the tests
 * run it at chosen moments instead of waiting 45 minutes; a second server on the same database is
 * a second process sweeping at the same moment.
 */
let server: TestServer;
let second: TestServer;
let counsellor: string;
const CONV = '/portal/features/conversations/conversationsapplication-id';
const hubs: HubConnection[] = [];
let children = 0;

beforeAll(async () => {
  server = await startTestServer();
  // One after the other: the first applies the migrations and the seed, the second finds them done.
  second = await startTestServer({ databaseUrl: server.databaseUrl });
  counsellor = (await login(server.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token;
});
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((h) => h.stop()));
});
afterAll(async () => {
  await second?.dispose();
  await server?.dispose();
});

async function newChild() {
  const username = `tid-${++children}`;
  const res = await api(server.url, '/portal/api/accounts/registercontact', {
    body: { username, password: 'blå-ballong-73' },
  });
  expect(res.status).toBe(201);
  return (await login(server.url, username, 'blå-ballong-73')).access_token;
}

const staff = (path: string, body?: unknown) =>
  api(server.url, `/portal/staff${path}`, { token: counsellor, ...(body === undefined ? {} : { body }) });

/** The child's chat as the child's app fetches it. */
async function childView(child: string, id: number): Promise<Conversation> {
  const res = await api(server.url, `${CONV}/conversations?conversation=${id}`, { token: child });
  return (res.body as { value: Conversation[] }).value[0]!;
}
async function childMessages(child: string, id: number): Promise<ConversationMessageWire[]> {
  const res = await api(server.url, `${CONV}/messages?take=9999&conversation=${id}&selection=mine`, {
    token: child,
  });
  return (res.body as { value: ConversationMessageWire[] }).value;
}

/** A child in the queue; a counsellor accepts and says hello, which makes the chat live. */
async function liveChat(child: string) {
  const chat = (await api(server.url, '/portal/chat', { token: child, body: { subject: 'Chatt' } }))
    .body as unknown as Conversation;
  expect((await staff(`/conversations/${chat.id}/accept`, {})).status).toBe(200);
  const hello = await staff(`/conversations/${chat.id}/messages`, { content: 'Hej!' });
  expect(hello.status).toBe(201);
  return { id: chat.id };
}

/**
 * The child's hub connections to both servers (without Redis, an event reaches only the connections
 * of the process that raised it), and the next Conversation.Updated either hears for `id`.
 */
async function childHubs(child: string) {
  const heard = await Promise.all(
    [server, second].map(async ({ url }) => {
      const hub = new HubConnectionBuilder()
        .withUrl(`${url}/hubs/portalaccountevents`, {
          transport: HttpTransportType.WebSockets,
          accessTokenFactory: () => child,
        })
        .configureLogging(LogLevel.None)
        .build();
      hubs.push(hub);
      await hub.start();
      return hub;
    }),
  );
  return (id: number) =>
    Promise.any(
      heard.map(
        (hub) =>
          new Promise<void>((resolve) =>
            hub.on('SendEvent', (name: string, _data: unknown, key: string) => {
              if (name === 'Conversation.Updated' && key === `Conversation:${id}`) resolve();
            }),
          ),
      ),
    );
}

describe('the daily chat limit', () => {
  it('starts counting at the counsellor’s first message, not at accepting, and gives both sides the end', async () => {
    const child = await newChild();
    const chat = (await api(server.url, '/portal/chat', { token: child, body: { subject: 'Chatt' } }))
      .body as unknown as Conversation;
    expect(chat).toMatchObject({ liveSince: null, limitEndsAt: null });
    await staff(`/conversations/${chat.id}/accept`, {});
    expect(await childView(child, chat.id)).toMatchObject({ liveSince: null, limitEndsAt: null });

    const hello = (await staff(`/conversations/${chat.id}/messages`, { content: 'Hej!' }))
      .body as unknown as ConversationMessageWire;
    const ends = new Date(Date.parse(hello.loggedDate) + CHAT_DAILY_LIMIT_MS).toISOString();
    expect(await childView(child, chat.id)).toMatchObject({ liveSince: hello.loggedDate, limitEndsAt: ends });
    // A second message moves nothing.
    await staff(`/conversations/${chat.id}/messages`, { content: 'Hur mår du?' });
    const mine = (await staff('/conversations')).body as { value: Conversation[] };
    expect(mine.value.find((c) => c.id === chat.id)).toMatchObject({
      liveSince: hello.loggedDate,
      limitEndsAt: ends,
    });
  });

  it('ends the chat at the limit with a system message, exactly once when two processes sweep at that moment', async () => {
    const child = await newChild();
    const { id } = await liveChat(child);
    const ends = Date.parse((await childView(child, id)).limitEndsAt!);
    const updated = (await childHubs(child))(id);

    // A second before the limit it goes on.
    await endChatsPastLimit(server.ctx, new Date(ends - 1000));
    expect((await childView(child, id)).state).toBe('InProgress');

    const at = new Date(ends);
    // (Each sweep ends every chat due by then, so their counts say nothing of this one: its messages do.)
    await Promise.all([endChatsPastLimit(server.ctx, at), endChatsPastLimit(second.ctx, at)]);
    await updated;
    const view = await childView(child, id);
    expect(view.state).toBe('Resolved');
    expect(view.closedDate).not.toBeNull();
    const endings = (await childMessages(child, id)).filter((m) => m.message === CHAT_LIMIT_REACHED_TEXT);
    expect(endings).toHaveLength(1);
    expect(endings[0]).toMatchObject({ authorKind: 'system', createdAfterClosedConversation: false });
    // The counsellor sees the same message, and can no longer write.
    const seen = (await staff(`/conversations/${id}/messages`)).body as { value: ConversationMessageWire[] };
    expect(seen.value.at(-1)?.message).toBe(CHAT_LIMIT_REACHED_TEXT);
    expect((await staff(`/conversations/${id}/messages`, { content: 'Hallå?' })).status).toBe(409);
    // A later sweep ends it no more.
    await endChatsPastLimit(second.ctx, new Date(ends + 60_000));
    expect(
      (await childMessages(child, id)).filter((m) => m.message === CHAT_LIMIT_REACHED_TEXT),
    ).toHaveLength(1);
  });

  it('ends a chat whose time is up when the counsellor writes before any sweep has run', async () => {
    const child = await newChild();
    const { id } = await liveChat(child);
    // As after a stop of every process: the end has passed and nobody has swept since.
    await server.ctx.db
      .updateTable('conversations')
      .set({ limit_ends_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', id)
      .execute();
    expect((await staff(`/conversations/${id}/messages`, { content: 'En sak till' })).status).toBe(409);
    expect((await childView(child, id)).state).toBe('Resolved');
    const messages = await childMessages(child, id);
    expect(messages.map((m) => m.message)).toEqual(['Hej!', CHAT_LIMIT_REACHED_TEXT]);
  });

  it('ends, on starting, a chat whose time ran out while no server ran', async () => {
    const database = await createTestDatabase();
    let restarted: TestServer | undefined;
    try {
      const before = await startTestServer({ databaseUrl: database.url });
      const token = (await login(before.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token;
      await api(before.url, '/portal/api/accounts/registercontact', {
        body: { username: 'omstart', password: 'blå-ballong-73' },
      });
      const child = (await login(before.url, 'omstart', 'blå-ballong-73')).access_token;
      const chat = (await api(before.url, '/portal/chat', { token: child, body: { subject: 'Chatt' } }))
        .body as unknown as Conversation;
      await api(before.url, `/portal/staff/conversations/${chat.id}/accept`, { token, body: {} });
      await api(before.url, `/portal/staff/conversations/${chat.id}/messages`, {
        token,
        body: { content: 'Hej!' },
      });
      await before.dispose();
      // While it was down, the chat's time ran out.
      const open = openDatabase(database.url);
      await open.db
        .updateTable('conversations')
        .set({ limit_ends_at: new Date(Date.now() - 60_000).toISOString() })
        .where('id', '=', chat.id)
        .execute();
      await open.close();

      restarted = await startTestServer({ databaseUrl: database.url });
      const row = await restarted.ctx.db
        .selectFrom('conversations')
        .select('state')
        .where('id', '=', chat.id)
        .executeTakeFirstOrThrow();
      expect(row.state).toBe('Resolved');
      const messages = await restarted.ctx.db
        .selectFrom('conversation_messages')
        .select('message')
        .where('conversation_id', '=', chat.id)
        .orderBy('id')
        .execute();
      expect(messages.map((m) => m.message)).toEqual(['Hej!', CHAT_LIMIT_REACHED_TEXT]);
    } finally {
      await restarted?.dispose();
      await database.drop();
    }
  });

  it('takes the child’s earlier live time of the same day off the next chat', async () => {
    const child = await newChild();
    const first = await liveChat(child);
    // The first chat went live 30 minutes ago and the child left it (cancelled: not a completed chat,
    // so the child may start another the same day).
    const liveFrom = new Date(Date.now() - 30 * 60_000);
    await server.ctx.db
      .updateTable('conversations')
      .set({ live_since: liveFrom.toISOString() })
      .where('id', '=', first.id)
      .execute();
    const left = await api(server.url, `${CONV}/cancel`, {
      method: 'PUT',
      token: child,
      body: { conversation: first.id },
    });
    expect(left.status).toBe(200);
    const closed = Date.parse((await childView(child, first.id)).closedDate!);

    const next = (await api(server.url, '/portal/chat', { token: child, body: { subject: 'Chatt' } }))
      .body as unknown as Conversation;
    await staff(`/conversations/${next.id}/accept`, {});
    const hello = (await staff(`/conversations/${next.id}/messages`, { content: 'Hej igen!' }))
      .body as unknown as ConversationMessageWire;
    const helloAt = Date.parse(hello.loggedDate);
    // Only today's part counts (a test run just after midnight sees less of the 30 minutes).
    const used = closed - Math.max(liveFrom.getTime(), stockholmDayStart(new Date(helloAt)).getTime());
    expect(Date.parse((await childView(child, next.id)).limitEndsAt!)).toBe(
      helloAt + CHAT_DAILY_LIMIT_MS - used,
    );
  });

  it('counts the day in Stockholm: yesterday’s time is not today’s, around midnight and summer time', async () => {
    const child = await newChild();
    const contactId = claimsOf(child).contactId;
    const { db } = server.ctx;
    const chatRow = (live: string | null, closed: string | null) =>
      db
        .insertInto('conversations')
        .values(
          conversationRow({
            contact_id: contactId,
            system_type: 'chat',
            subject: 'Chatt',
            state: closed ? 'Cancelled' : 'InProgress',
            logged_date: live ?? '2024-03-31T09:00:00.000Z',
            closed_date: closed,
            live_since: live,
          }),
        )
        .returning('id')
        .executeTakeFirstOrThrow();
    // 31 March 2024, the day Sweden moves to summer time (midnight is 23:00 UTC on the 30th).
    // 22:50-23:10 UTC: ten minutes before Stockholm's midnight, ten after; and a chat the day before.
    await chatRow('2024-03-30T22:50:00.000Z', '2024-03-30T23:10:00.000Z');
    await chatRow('2024-03-30T10:00:00.000Z', '2024-03-30T10:30:00.000Z');
    // 06:00-06:15 UTC: fifteen minutes of the same Stockholm day.
    await chatRow('2024-03-31T06:00:00.000Z', '2024-03-31T06:15:00.000Z');
    const now = await chatRow(null, null);
    await startChatClock(server.ctx, now.id, '2024-03-31T09:00:00.000Z');
    const row = await db
      .selectFrom('conversations')
      .select(['live_since', 'limit_ends_at'])
      .where('id', '=', now.id)
      .executeTakeFirstOrThrow();
    // 45 - 10 - 15 = 20 minutes left.
    expect(row).toEqual({
      live_since: '2024-03-31T09:00:00.000Z',
      limit_ends_at: '2024-03-31T09:20:00.000Z',
    });
  });

  it('knows where a Stockholm day starts in winter and in summer time', () => {
    expect(stockholmDayStart(new Date('2024-01-15T22:59:59.000Z')).toISOString()).toBe(
      '2024-01-14T23:00:00.000Z',
    );
    expect(stockholmDayStart(new Date('2024-01-15T23:00:00.000Z')).toISOString()).toBe(
      '2024-01-15T23:00:00.000Z',
    );
    expect(stockholmDayStart(new Date('2024-07-01T21:59:00.000Z')).toISOString()).toBe(
      '2024-06-30T22:00:00.000Z',
    );
    expect(stockholmDayStart(new Date('2024-07-01T22:00:00.000Z')).toISOString()).toBe(
      '2024-07-01T22:00:00.000Z',
    );
    // The day summer time ends (27 October 2024) is 25 hours long.
    expect(stockholmDayStart(new Date('2024-10-27T22:30:00.000Z')).toISOString()).toBe(
      '2024-10-26T22:00:00.000Z',
    );
  });
});

describe('CHAT_LIMIT_SECONDS (test-only)', () => {
  it('leaves the limit at 45 minutes unless given, and shortens it for a test server', () => {
    expect(loadConfig({}).chatLimitMs).toBe(45 * 60_000);
    expect(loadConfig({ CHAT_LIMIT_SECONDS: '30' }).chatLimitMs).toBe(30_000);
    expect(() => loadConfig({ CHAT_LIMIT_SECONDS: 'snart' })).toThrow(/CHAT_LIMIT_SECONDS/);
  });

  it('is refused by a production server', () => {
    expect(() => loadConfig({ ...PRODUCTION_ENV, CHAT_LIMIT_SECONDS: '30' })).toThrow(/tests only/);
  });
});

describe('a counsellor message whose follow-up fails after it is stored', () => {
  it('is stored once: the retry with the same key replays it instead of writing it again', async () => {
    const child = await newChild();
    const chat = (await api(server.url, '/portal/chat', { token: child, body: { subject: 'Chatt' } }))
      .body as unknown as Conversation;
    expect((await staff(`/conversations/${chat.id}/accept`, {})).status).toBe(200);
    const { db, dbKind } = server.ctx;
    // A real fault after the message's commit: starting the chat's clock (the first counsellor
    // message makes the chat live) fails, as a query on a connection just cut would.
    if (dbKind === 'postgres') {
      await sql`CREATE FUNCTION fail_clock() RETURNS trigger LANGUAGE plpgsql AS
        $$ BEGIN RAISE EXCEPTION 'fault'; END $$`.execute(db);
      await sql`CREATE TRIGGER fail_clock BEFORE UPDATE ON conversations FOR EACH ROW
        WHEN (NEW.live_since IS NOT NULL AND OLD.live_since IS NULL) EXECUTE FUNCTION fail_clock()`.execute(
        db,
      );
    } else {
      await sql`CREATE TRIGGER fail_clock BEFORE UPDATE ON conversations
        WHEN NEW.live_since IS NOT NULL AND OLD.live_since IS NULL BEGIN SELECT RAISE(ABORT, 'fault'); END`.execute(
        db,
      );
    }
    const key = `k-${chat.id}-hello-once`;
    const send = () =>
      postWithKey(server.url, `/portal/staff/conversations/${chat.id}/messages`, {
        token: counsellor,
        key,
        body: { content: 'Hej en gång' },
      });
    let first: Response;
    try {
      first = await send();
    } finally {
      await sql`DROP TRIGGER fail_clock${sql.raw(dbKind === 'postgres' ? ' ON conversations' : '')}`.execute(
        db,
      );
      if (dbKind === 'postgres') await sql`DROP FUNCTION fail_clock()`.execute(db);
    }
    expect(first.status).toBe(500);
    const again = await send();
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const replayed = (await again.json()) as ConversationMessageWire;
    expect(replayed.message).toBe('Hej en gång');
    const sent = (await childMessages(child, chat.id)).filter((m) => m.message === 'Hej en gång');
    expect(sent.map((m) => m.id)).toEqual([replayed.id]);
  });
});
