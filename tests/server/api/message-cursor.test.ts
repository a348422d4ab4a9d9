/**
 * The catch-up cursor of the message lists (`since`, contract/schemas/conversations.ts): only what
 * came after the client's newest message, with the overlap that keeps a late commit from being
 * skipped; a bad cursor is a 400, someone else's conversation is refused as it is without one, and a
 * list asked without it is the whole list as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { CompiledQuery } from 'kysely';
import type { Conversation, ConversationMessageWire } from '../../../contract/conversations.ts';
import type { Meeting } from '../../../contract/meetings.ts';
import { MESSAGES_SINCE_OVERLAP_MS } from '../../../contract/limits.ts';
import { insertMessage } from '../../../server/conversations/writes.ts';
import { api, login, startTestServer, type TestServer } from '../../../harness/test-server.ts';

const CONV = '/portal/features/conversations/conversationsapplication-id';
const HOUR = 3_600_000;

let server: TestServer;
let recording = false;
const recorded: CompiledQuery[] = [];
let childA: string;
let childB: string;
let mailA: Conversation;
let mailB: Conversation;

beforeAll(async () => {
  server = await startTestServer({ build: { onQuery: (q) => void (recording && recorded.push(q)) } });
  childA = await newChild('cursor-barn-a');
  childB = await newChild('cursor-barn-b');
  mailA = (
    await api(server.url, '/portal/mail', { token: childA, body: { subject: 'A', text: 'Hej från A' } })
  ).body as unknown as Conversation;
  mailB = (
    await api(server.url, '/portal/mail', { token: childB, body: { subject: 'B', text: 'Hej från B' } })
  ).body as unknown as Conversation;
});
afterAll(async () => server?.dispose());

async function newChild(username: string) {
  const res = await api(server.url, '/portal/api/accounts/registercontact', {
    body: { username, password: 'blå-ballong-73' },
  });
  expect(res.status).toBe(201);
  return (await login(server.url, username, 'blå-ballong-73')).access_token;
}

/** A counsellor's message written at `loggedDate`, straight through the server's own write. */
const seed = (conversationId: number, message: string, loggedDate: Date) =>
  insertMessage(server.ctx.db, {
    conversationId,
    authorKind: 'agent',
    message,
    authorName: 'Kurator',
    loggedDate: loggedDate.toISOString(),
  });

const messagesPath = (conversation: number, extra = '') =>
  `${CONV}/messages?take=9999&conversation=${conversation}&selection=mine${extra}`;

async function list(token: string, path: string): Promise<ConversationMessageWire[]> {
  const res = await api(server.url, path, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { value: ConversationMessageWire[] }).value;
}

describe('the message lists with the catch-up cursor', () => {
  it('answer only what came after the cursor, and the whole list without it as before', async () => {
    const base = Date.now() - 10 * HOUR;
    const old = [];
    for (let i = 0; i < 6; i++) old.push(await seed(mailA.id, `Gammalt ${i}`, new Date(base + i * HOUR)));
    const whole = await list(childA, messagesPath(mailA.id));
    expect(whole.map((m) => m.message)).toEqual([...old.map((m) => m.message), 'Hej från A']);

    const after = await list(childA, messagesPath(mailA.id, `&since=${old[2]!.id}`));
    expect(after.map((m) => m.message)).toEqual(['Gammalt 3', 'Gammalt 4', 'Gammalt 5', 'Hej från A']);
    const newest = whole.at(-1)!.id;
    expect(await list(childA, messagesPath(mailA.id, `&since=${newest}`))).toEqual([]);
    // take and skip stay what they were: accepted, and the list is whole.
    expect(await list(childA, `${CONV}/messages?take=1&skip=3&conversation=${mailA.id}`)).toEqual(whole);
  });

  it('also answers a message with a lower id logged within the overlap (a write that committed late)', async () => {
    const at = Date.now() + HOUR;
    // The earlier id was handed out first, but the client saw only the later one when it fetched.
    const late = await seed(mailA.id, 'Sent synlig', new Date(at - MESSAGES_SINCE_OVERLAP_MS / 2));
    const seen = await seed(mailA.id, 'Sedd', new Date(at));
    const tooEarly = await seed(mailA.id, 'Långt före', new Date(at - 2 * MESSAGES_SINCE_OVERLAP_MS));
    expect(late.id).toBeLessThan(seen.id);
    const after = await list(childA, messagesPath(mailA.id, `&since=${seen.id}`));
    expect(after.map((m) => m.id)).toEqual([late.id]);
    expect(after.map((m) => m.id)).not.toContain(tooEarly.id);
  });

  it('answers the whole list, and nothing of another conversation, for a cursor that is not one of its messages', async () => {
    const foreign = (await list(childB, messagesPath(mailB.id)))[0]!;
    const whole = await list(childA, messagesPath(mailA.id));
    expect(await list(childA, messagesPath(mailA.id, `&since=${foreign.id}`))).toEqual(whole);
    expect(await list(childA, messagesPath(mailA.id, '&since=2147483647'))).toEqual(whole);
  });

  it('refuses a cursor that is no id with 400', async () => {
    for (const bad of ['abc', '0', '-4', '1.5', '2147483648', '1e3x']) {
      const res = await api(server.url, messagesPath(mailA.id, `&since=${bad}`), { token: childA });
      expect(res.status, `since=${bad}`).toBe(400);
      const group = await api(server.url, `/portal/groupconversationmessages?conversationId=1&since=${bad}`, {
        token: childA,
      });
      expect(group.status, `group since=${bad}`).toBe(400);
    }
  });

  it("refuses another child's conversation with a cursor exactly as without one", async () => {
    const own = (await list(childB, messagesPath(mailB.id)))[0]!;
    const without = await api(server.url, messagesPath(mailB.id), { token: childA });
    const withCursor = await api(server.url, messagesPath(mailB.id, `&since=${own.id}`), { token: childA });
    expect(without.status).toBe(403);
    expect(withCursor).toEqual(without);
    const groupWithout = await api(
      server.url,
      `/portal/groupconversationmessages?conversationId=${mailB.id}`,
      {
        token: childA,
      },
    );
    const groupWith = await api(
      server.url,
      `/portal/groupconversationmessages?conversationId=${mailB.id}&since=${own.id}`,
      { token: childA },
    );
    expect(groupWithout.status).toBe(403);
    expect(groupWith).toEqual(groupWithout);
  });

  it('gives the group chat list the same cursor', async () => {
    const leader = (await login(server.url, 'gruppledare', 'gruppledare-losenord', 'portal-staff'))
      .access_token;
    const participant = (await login(server.url, 'DEMOKOD-0001')).access_token;
    const created = await api(server.url, '/portal/staff/meetings', {
      token: leader,
      body: {
        seriesId: 1,
        subject: 'Markör',
        description: '',
        startDate: new Date().toISOString(),
        duration: 60,
      },
    });
    expect(created.status).toBe(201);
    const meetingId = (created.body as unknown as Meeting).id;
    const started = await api(server.url, `/portal/staff/meetings/${meetingId}/start`, {
      token: leader,
      body: {},
    });
    const conversationId = (started.body as unknown as Meeting).conversation!.id;
    const base = Date.now() - 5 * HOUR;
    const old = [];
    for (let i = 0; i < 3; i++) old.push(await seed(conversationId, `Grupp ${i}`, new Date(base + i * HOUR)));
    await api(server.url, `/portal/staff/meetings/${meetingId}/messages`, {
      token: leader,
      body: { content: 'Nu' },
    });

    const path = `/portal/groupconversationmessages?conversationId=${conversationId}`;
    const whole = await list(participant, path);
    expect(whole.map((m) => m.message)).toEqual(['Grupp 0', 'Grupp 1', 'Grupp 2', 'Nu']);
    const after = await list(participant, `${path}&since=${old[1]!.id}`);
    expect(after.map((m) => m.message)).toEqual(['Grupp 2', 'Nu']);
    // A one-to-one conversation is still no group chat, cursor or not.
    const notGroup = await api(
      server.url,
      `/portal/groupconversationmessages?conversationId=${mailA.id}&since=1`,
      {
        token: childA,
      },
    );
    expect(notGroup.status).toBe(404);
  });

  it('reads the messages after the cursor through the (conversation_id, logged_date) index', async () => {
    const newest = (await list(childA, messagesPath(mailA.id))).at(-1)!.id;
    recorded.length = 0;
    recording = true;
    await list(childA, messagesPath(mailA.id, `&since=${newest}`));
    recording = false;
    const query = recorded.find(
      (q) => /from "conversation_messages"/i.test(q.sql) && /"logged_date" >=/.test(q.sql),
    );
    expect(query, 'the cursor query').toBeDefined();
    const plan = await explain(query!);
    expect(plan).toContain('conversation_messages_conversation');
  });
});

/** The statement's query plan as text: SQLite's EXPLAIN QUERY PLAN, or PostgreSQL's with scans priced out. */
async function explain(query: CompiledQuery): Promise<string> {
  if (server.databaseUrl.startsWith('postgres')) {
    const client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    try {
      await client.query('SET enable_seqscan = off');
      const { rows } = await client.query(`EXPLAIN (FORMAT JSON) ${query.sql}`, [...query.parameters]);
      return JSON.stringify(rows);
    } finally {
      await client.end();
    }
  }
  const db = new SQLite(server.databaseUrl, { readonly: true });
  try {
    const rows = db
      .prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
      .all(...(query.parameters as unknown[])) as Array<{
      detail: string;
    }>;
    return rows.map((r) => r.detail).join('\n');
  } finally {
    db.close();
  }
}
