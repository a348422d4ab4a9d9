import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { FEEDBACK_TEXT_MAX_LENGTH, type FeedbackSummary } from '../../../contract/chat-feedback.ts';
import type { Conversation } from '../../../contract/conversations.ts';
import { isoWeekOf } from '../../../server/conversations/chat-feedback.ts';
import {
  api,
  createStaffAccount,
  login,
  startTestServer,
  type TestServer,
} from '../../../harness/test-server.ts';

/**
 * 'Hur kändes chatten?' (docs/decisions.md "Heard after the chat"): one answer and one text per
 * ended chat, from its own child only, kept as counts and texts by channel and week, apart from who
 * gave them. Over the real routes, on SQLite (and PostgreSQL under test:scale).
 */
const CONV = '/portal/features/conversations/conversationsapplication-id';
const PASSWORD = 'blå-ballong-73';
let server: TestServer;
let counsellor: string;
let admin: string;
let children = 0;

beforeAll(async () => {
  server = await startTestServer();
  counsellor = (await login(server.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token;
  await createStaffAccount(server, 'admin-feedback', 'admin-losenord-9', ['admin']);
  admin = (await login(server.url, 'admin-feedback', 'admin-losenord-9', 'portal-staff')).access_token;
});
afterAll(async () => server.dispose());

async function newChild(): Promise<string> {
  const username = `kandes-${(children += 1)}`;
  const res = await api(server.url, '/portal/api/accounts/registercontact', {
    body: { username, password: PASSWORD },
  });
  expect(res.status).toBe(201);
  return (await login(server.url, username, PASSWORD)).access_token;
}

/** A chat of a new child that a counsellor took, answered and ended (`end` false: still live). */
async function endedChat(end = true): Promise<{ child: string; id: number }> {
  const child = await newChild();
  const chat = (await api(server.url, '/portal/chat', { token: child, body: { subject: 'Chatt', text: '' } }))
    .body as unknown as Conversation;
  const staff = `/portal/staff/conversations/${chat.id}`;
  expect((await api(server.url, `${staff}/accept`, { token: counsellor, body: {} })).status).toBe(200);
  expect(
    (await api(server.url, `${staff}/messages`, { token: counsellor, body: { content: 'Hej!' } })).status,
  ).toBe(201);
  if (end)
    expect((await api(server.url, `${staff}/resolve`, { token: counsellor, body: {} })).status).toBe(200);
  return { child, id: chat.id };
}

const answer = (token: string, conversation: number, value: string) =>
  api(server.url, `${CONV}/feedback`, { token, body: { conversation, answer: value } });
const tell = (token: string, conversation: number, text: string) =>
  api(server.url, `${CONV}/feedbackText`, { token, body: { conversation, text } });
const counts = () => server.ctx.db.selectFrom('chat_feedback_counts').selectAll().execute();
const summary = async () =>
  (await api(server.url, '/portal/staff/feedback', { token: admin })).body as unknown as FeedbackSummary;

describe('the ISO week of an ended chat', () => {
  it('is Stockholm’s, and its Thursday decides the year', () => {
    expect(isoWeekOf(new Date('2026-12-07T10:00:00Z'))).toBe('2026-W50');
    // Sunday 3 January 2021 belongs to the last week of 2020; Monday 29 December 2025 to 2026's first.
    expect(isoWeekOf(new Date('2021-01-03T12:00:00Z'))).toBe('2020-W53');
    expect(isoWeekOf(new Date('2025-12-29T12:00:00Z'))).toBe('2026-W01');
    // Sunday 23:30 UTC in winter is Monday 00:30 in Stockholm: the next week.
    expect(isoWeekOf(new Date('2026-12-06T23:30:00Z'))).toBe('2026-W50');
  });
});

describe('feedback after a chat', () => {
  it('is one answer and one text per ended chat, counted by channel and week, however often it is sent', async () => {
    const { child, id } = await endedChat();
    const before = await counts();
    // Sent several times at once, as a burst or an outbox trying again: one count.
    const sent = await Promise.all([1, 2, 3, 4].map(() => answer(child, id, 'helped')));
    expect(sent.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect((await answer(child, id, 'not_helped')).status).toBe(200);
    const after = await counts();
    const total = (rows: typeof after, a: string) =>
      rows.filter((r) => r.answer === a).reduce((n, r) => n + Number(r.count), 0);
    expect(total(after, 'helped') - total(before, 'helped')).toBe(1);
    expect(total(after, 'not_helped')).toBe(total(before, 'not_helped'));

    const text = `Det var skönt att prata ${id}`;
    expect((await tell(child, id, `  ${text}  `)).status).toBe(200);
    expect((await tell(child, id, 'En gång till')).status).toBe(200);
    const texts = await server.ctx.db.selectFrom('chat_feedback_texts').selectAll().execute();
    expect(texts.filter((t) => t.text === text)).toHaveLength(1);
    expect(texts.some((t) => t.text === 'En gång till')).toBe(false);

    const figures = await summary();
    const week = figures.weeks.find((w) => w.week === isoWeekOf(new Date()) && w.counts.helped > 0);
    expect(week?.channel).toEqual(expect.any(Number));
    expect(figures.texts.map((t) => t.text)).toContain(text);
    expect(Object.keys(figures.texts[0]!).sort()).toEqual(['channel', 'channelName', 'text', 'week']);
    expect(week?.channelName).toBe('Chatt');
  });

  it('is kept apart from who gave it: no stored row but the text itself holds the text or leads back', async () => {
    const { child, id } = await endedChat();
    const text = `Ingen ska veta ${Math.random()}`;
    expect((await answer(child, id, 'unsure')).status).toBe(200);
    expect((await tell(child, id, text)).status).toBe(200);
    expect(Object.keys((await counts())[0]!).sort()).toEqual(['answer', 'channel_id', 'count', 'week']);
    const stored = await server.ctx.db
      .selectFrom('chat_feedback_texts')
      .selectAll()
      .where('text', '=', text)
      .execute();
    expect(Object.keys(stored[0]!).sort()).toEqual(['channel_id', 'id', 'text', 'week']);
    expect(stored[0]!.id).toMatch(/^[0-9a-f-]{36}$/);
    // Every other table of the database: the text is in none of them.
    const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`
      .execute(server.ctx.db)
      .catch(() =>
        sql<{
          name: string;
        }>`select tablename as name from pg_tables where schemaname = current_schema()`.execute(
          server.ctx.db,
        ),
      );
    for (const { name } of tables.rows.filter((t) => t.name !== 'chat_feedback_texts')) {
      const rows = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(
        server.ctx.db,
      );
      expect({ name, holds: JSON.stringify(rows.rows).includes(text) }).toEqual({ name, holds: false });
    }
  });

  it('is refused from another child, for a chat still going, a mail and a queue left, and for bad input', async () => {
    const { id } = await endedChat();
    const other = await newChild();
    expect((await answer(other, id, 'helped')).status).toBe(403);
    expect((await tell(other, id, 'Inte min chatt')).status).toBe(403);
    expect((await answer(counsellor, id, 'helped')).status).toBe(403);
    expect((await answer(other, 987_654, 'helped')).status).toBe(404);

    const live = await endedChat(false);
    expect((await answer(live.child, live.id, 'helped')).status).toBe(409);
    const left = await newChild();
    const queued = (
      await api(server.url, '/portal/chat', { token: left, body: { subject: 'Chatt', text: '' } })
    ).body as unknown as Conversation;
    await api(server.url, `${CONV}/cancel`, {
      method: 'PUT',
      token: left,
      body: { conversation: queued.id },
    });
    expect((await answer(left, queued.id, 'helped')).status).toBe(409);
    const mailer = await newChild();
    const mail = (
      await api(server.url, '/portal/mail', { token: mailer, body: { subject: 'Fråga', text: 'Hej' } })
    ).body as unknown as Conversation;
    expect((await answer(mailer, mail.id, 'helped')).status).toBe(409);

    const mine = await endedChat();
    expect((await answer(mine.child, mine.id, 'kanske')).status).toBe(400);
    expect((await tell(mine.child, mine.id, '   ')).status).toBe(400);
    expect((await tell(mine.child, mine.id, 'x'.repeat(FEEDBACK_TEXT_MAX_LENGTH + 1))).status).toBe(400);
    // Refused input used up nothing: the chat's answer and text are still to be given.
    expect((await answer(mine.child, mine.id, 'skipped')).status).toBe(200);
    expect((await tell(mine.child, mine.id, 'x'.repeat(FEEDBACK_TEXT_MAX_LENGTH))).status).toBe(200);
  });

  it('is read by an administrator only, and the child’s erasure leaves the figures and takes the marks', async () => {
    const { child, id } = await endedChat();
    expect((await answer(child, id, 'helped')).status).toBe(200);
    expect((await api(server.url, '/portal/staff/feedback', { token: counsellor })).status).toBe(403);
    expect((await api(server.url, '/portal/staff/feedback', { token: child })).status).toBe(403);
    expect((await api(server.url, '/portal/staff/feedback?weeks=0', { token: admin })).status).toBe(400);
    const before = (await summary()).weeks.reduce((n, w) => n + w.counts.helped, 0);
    expect((await api(server.url, '/portal/deleteContact', { token: child, body: {} })).status).toBe(200);
    const marks = await server.ctx.db
      .selectFrom('chat_feedback_given')
      .selectAll()
      .where('conversation_id', '=', id)
      .execute();
    expect(marks).toEqual([]);
    expect((await summary()).weeks.reduce((n, w) => n + w.counts.helped, 0)).toBe(before);
  });
});
