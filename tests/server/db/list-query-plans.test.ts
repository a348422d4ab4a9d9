/**
 * Every list the apps read is served by an index: the real API answers each list call
 * while the server records the statements it runs, and each SELECT's query plan is read from the
 * database itself - EXPLAIN QUERY PLAN on SQLite, EXPLAIN (FORMAT JSON) with sequential scans
 * priced out on PostgreSQL (npm run test:scale). A table read whole where it could grow with the
 * number of children, messages or meetings fails the test: a plan, not a timing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { CompiledQuery } from 'kysely';
import { api, login, startTestServer, type TestServer } from '../../../harness/test-server.ts';

/** Tables that hold configuration, not users' data: a few rows whatever the traffic. */
const SMALL_TABLES = new Set(['channels', 'signing_keys', 'server_secrets', 'kysely_migration']);

const APP = '/portal/features/conversations/conversationsapplication-id';
const MEETINGS = '/portal/features/meetings/meetingsapplicationfeature-id';

let server: TestServer;
let recording = false;
const recorded: CompiledQuery[] = [];

beforeAll(async () => {
  server = await startTestServer({
    variant: 'peers',
    build: { onQuery: (query) => void (recording && recorded.push(query)) },
  });
});
afterAll(async () => server?.dispose());

interface Call {
  who: string;
  token: string;
  path: string;
}

/** Makes every list call of the child app and the staff console once, with data in each list. */
async function listCalls(): Promise<Call[]> {
  const url = server.url;
  const child = (await login(url, 'demo', 'demo-losenord')).access_token;
  const participant = (await login(url, 'DEMOKOD-0001')).access_token;
  const counsellor = (await login(url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token;
  const leader = (await login(url, 'gruppledare', 'gruppledare-losenord', 'portal-staff')).access_token;
  const ok = async (res: Promise<{ status: number; body: Record<string, unknown> | null }>) => {
    const answer = await res;
    expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
    return answer.body!;
  };

  const mail = await ok(api(url, '/portal/mail', { token: child, body: { subject: 'Fråga', text: 'Hej' } }));
  const chat = await ok(api(url, '/portal/chat', { token: child, body: { text: 'Hej' } }));
  await ok(
    api(url, `/portal/staff/conversations/${String(mail.id)}/messages`, {
      token: counsellor,
      body: { content: 'Svar' },
    }),
  );
  const meetings = (await ok(api(url, '/portal/staff/meetings', { token: leader }))).value as Array<{
    id: number;
    state: string;
  }>;
  const meeting = meetings.find((m) => m.state === 'InProgress') ?? meetings[0]!;
  const started = await ok(
    api(url, `/portal/staff/meetings/${meeting.id}/start`, { token: leader, body: {} }),
  );
  const groupChat = (started.conversation as { id: number }).id;
  await ok(
    api(url, `/portal/staff/meetings/${meeting.id}/messages`, {
      token: leader,
      body: { content: 'Välkomna' },
    }),
  );
  const post = await ok(
    api(url, '/portal/api/peers/posts', { token: participant, body: { subject: 'Tips', text: 'Ett tips' } }),
  );
  await ok(api(url, `/portal/staff/peers/posts/${String(post.id)}/approve`, { token: counsellor, body: {} }));
  await ok(
    api(url, `/portal/api/peers/posts/${String(post.id)}/replies`, { token: child, body: { text: 'Tack' } }),
  );

  const fromDate = new Date(Date.now() - 30 * 24 * 3600_000).toISOString();
  const asChild = (path: string): Call => ({ who: 'child', token: child, path });
  const asParticipant = (path: string): Call => ({ who: 'participant', token: participant, path });
  const asCounsellor = (path: string): Call => ({ who: 'counsellor', token: counsellor, path });
  const asLeader = (path: string): Call => ({ who: 'leader', token: leader, path });
  return [
    asChild(`${APP}/conversations?take=9999&skip=0&selection=mine`),
    asChild(`${APP}/conversations?take=999&skip=0&selection=active`),
    asChild(`${APP}/conversations?take=9999&skip=0&selection=resolved`),
    asChild(`${APP}/conversations?take=9999&skip=0&selection=mine&conversation=${String(mail.id)}`),
    asChild(`${APP}/messages?conversation=${String(mail.id)}`),
    asChild(`${APP}/queuePosition?conversation=${String(chat.id)}`),
    asChild(`${APP}/channels`),
    asChild(`${APP}/conversationConnections?conversation=${String(chat.id)}`),
    asChild(`/portal/api/notifications?fromDate=${fromDate}`),
    asChild(`/portal/api/notifications/count?isProcessed=false&fromDate=${fromDate}`),
    asChild('/portal/contactmessages'),
    asChild('/portal/features/contacts/contactsapplicationfeature-id/detail'),
    asChild('/portal/accounts'),
    asChild('/portal/api/peers/posts'),
    asChild('/portal/api/peers/my-posts'),
    asChild(`/portal/api/peers/posts/${String(post.id)}`),
    asParticipant(`${APP}/conversations?take=9999&skip=0&selection=mine`),
    asParticipant(`${MEETINGS}/meetings`),
    asParticipant(`${MEETINGS}/meeting?meetingId=${meeting.id}`),
    asParticipant(`${MEETINGS}/appendices?MeetingId=${meeting.id}`),
    asParticipant(`${MEETINGS}/meetingmessages?meetingId=${meeting.id}`),
    asParticipant(`/portal/groupconversationmessages?conversationId=${groupChat}`),
    asParticipant('/portal/api/peers/my-posts'),
    asCounsellor('/portal/staff/queue'),
    asCounsellor('/portal/staff/conversations'),
    asCounsellor(`/portal/staff/conversations/${String(mail.id)}/messages`),
    asCounsellor('/portal/staff/peers/queue'),
    asCounsellor('/portal/staff/peers/posts'),
    asLeader('/portal/staff/meetings'),
    asLeader('/portal/staff/series'),
    asLeader(`/portal/staff/meetings/${meeting.id}/private-messages`),
    asLeader(`/portal/staff/meetings/${meeting.id}/messages`),
  ];
}

/**
 * SQLite: the tables a plan reads whole ('SCAN t', with or without an index to walk in order). A
 * partial index walked whole is no such read: it holds only the rows its WHERE names (open chats).
 */
function sqliteFullScans(
  database: SQLite.Database,
  query: CompiledQuery,
  tables: Set<string>,
  partialIndexes: Set<string>,
): string[] {
  const plan = database
    .prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
    .all(...(query.parameters as unknown[])) as Array<{ detail: string }>;
  return plan
    .map((row) => /^SCAN (\w+)(?: USING (?:COVERING )?INDEX (\w+))?/.exec(row.detail))
    .filter((scan) => scan !== null && tables.has(scan[1]!) && !partialIndexes.has(scan[2] ?? ''))
    .map((scan) => scan![1]!);
}

interface PgPlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PgPlanNode[];
}

/**
 * PostgreSQL, with sequential scans priced out: a table still read whole (a Seq Scan, or an index
 * walked end to end without an Index Cond, unless it is a partial one) has no index for the query.
 */
function pgFullScans(node: PgPlanNode, tables: Set<string>, partialIndexes: Set<string>): string[] {
  const own =
    node['Relation Name'] !== undefined &&
    tables.has(node['Relation Name']) &&
    (node['Node Type'] === 'Seq Scan' ||
      (/^Index (Only )?Scan$/.test(node['Node Type']) &&
        node['Index Cond'] === undefined &&
        !partialIndexes.has(node['Index Name'] ?? '')))
      ? [node['Relation Name']]
      : [];
  return [...own, ...(node.Plans ?? []).flatMap((child) => pgFullScans(child, tables, partialIndexes))];
}

describe('list queries and their indexes', () => {
  it('reads no growing table whole for any list of the child app or the staff console', async () => {
    const calls = await listCalls();
    recording = true;
    for (const call of calls) {
      const res = await api(server.url, call.path, { token: call.token, variant: 'Peers' });
      // A child with an open chat is told so with 409 (SPEC §3 chat account status).
      expect(res.status, `${call.who} ${call.path}`).toBeLessThan(300);
    }
    await api(server.url, '/portal/chatAccountStatus', { token: calls[0]!.token });
    recording = false;

    const selects = [
      ...new Map(recorded.filter((q) => /^\s*select/i.test(q.sql)).map((q) => [q.sql, q])).values(),
    ];
    expect(selects.length).toBeGreaterThan(30);

    const offending: string[] = [];
    if (server.databaseUrl.startsWith('postgres')) {
      const client = new pg.Client({ connectionString: server.databaseUrl });
      await client.connect();
      try {
        const { rows } = await client.query<{ tablename: string }>(
          "SELECT tablename FROM pg_tables WHERE schemaname = 'public'",
        );
        const tables = new Set(rows.map((r) => r.tablename).filter((t) => !SMALL_TABLES.has(t)));
        const partial = await client.query<{ name: string }>(
          'SELECT indexrelid::regclass::text AS name FROM pg_index WHERE indpred IS NOT NULL',
        );
        const partialIndexes = new Set(partial.rows.map((r) => r.name));
        await client.query('SET enable_seqscan = off');
        for (const query of selects) {
          const explained = await client.query<{ 'QUERY PLAN': Array<{ Plan: PgPlanNode }> }>(
            `EXPLAIN (FORMAT JSON) ${query.sql}`,
            query.parameters as unknown[],
          );
          const scans = pgFullScans(explained.rows[0]!['QUERY PLAN'][0]!.Plan, tables, partialIndexes);
          if (scans.length) offending.push(`${scans.join(', ')} read whole by: ${query.sql}`);
        }
      } finally {
        await client.end();
      }
    } else {
      const database = new SQLite(server.databaseUrl, { readonly: true });
      try {
        const rows = database.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{
          name: string;
        }>;
        const tables = new Set(rows.map((r) => r.name).filter((t) => !SMALL_TABLES.has(t)));
        const partial = database
          .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql LIKE '% WHERE %'")
          .all() as Array<{ name: string }>;
        const partialIndexes = new Set(partial.map((r) => r.name));
        for (const query of selects) {
          const scans = sqliteFullScans(database, query, tables, partialIndexes);
          if (scans.length) offending.push(`${scans.join(', ')} read whole by: ${query.sql}`);
        }
      } finally {
        database.close();
      }
    }
    expect(offending).toEqual([]);
  });
});
