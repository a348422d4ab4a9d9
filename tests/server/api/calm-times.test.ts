import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, login, startTestServer, type TestServer } from '../../../harness/test-server.ts';
import type { CalmTimes } from '../../../contract/calm-times.ts';
import {
  CALM_TIMES_REDRAW_MS,
  calmTimesOf,
  drawCalmTimes,
  stockholmWeekHour,
} from '../../../server/conversations/calm-times.ts';
import { conversationRow } from '../../../server/conversations/writes.ts';

/**
 * 'När är det lugnast?' (contract/calm-times.ts): the typical wait by Stockholm weekday and hour, from
 * the taken chats of the last four weeks, over the real route and a real database (SQLite, and
 * PostgreSQL under test:scale).
 */
const CALM = '/portal/features/conversations/conversationsapplication-id/calmTimes';
const MINUTE = 60_000;
const DAY = 86_400_000;

let server: TestServer;
let child: string;
let chatChannel: number;

beforeAll(async () => {
  server = await startTestServer();
  const res = await api(server.url, '/portal/api/accounts/registercontact', {
    body: { username: 'lugnet-1', password: 'blå-ballong-73' },
  });
  expect(res.status).toBe(201);
  child = (await login(server.url, 'lugnet-1', 'blå-ballong-73')).access_token;
  chatChannel = (
    await server.ctx.db
      .selectFrom('channels')
      .select('id')
      .where('system_type', '=', 'chat')
      .executeTakeFirstOrThrow()
  ).id;
});
afterAll(async () => server.dispose());

/** A chat of `channel` that joined the queue at `joined` and was taken `waitedMin` minutes later (or never). */
const chat = (
  channel: number | null,
  joined: Date,
  waitedMin: number | null,
  systemType: 'chat' | 'mail' = 'chat',
) =>
  server.ctx.db
    .insertInto('conversations')
    .values(
      conversationRow({
        channel_id: channel,
        system_type: systemType,
        subject: 'Chatt',
        state: waitedMin === null ? 'Cancelled' : 'Resolved',
        logged_date: joined.toISOString(),
        live_since: waitedMin === null ? null : new Date(joined.getTime() + waitedMin * MINUTE).toISOString(),
        closed_date: new Date(joined.getTime() + 40 * MINUTE).toISOString(),
      }),
    )
    .execute();

/** The same Stockholm weekday and hour as `at`, `weeks` weeks before (a clock change between moves it). */
function sameHourWeeksBefore(at: Date, weeks: number): Date {
  const before = new Date(at.getTime() - weeks * 7 * DAY);
  return new Date(
    before.getTime() + (stockholmWeekHour(at).hour - stockholmWeekHour(before).hour) * 60 * MINUTE,
  );
}

describe('drawing the calm times', () => {
  it('puts a wait in the Stockholm weekday and hour it joined at, summer and winter time alike', () => {
    // Tuesday 5 March 2024 15:30 in Stockholm is 14:30 UTC (winter); Tuesday 4 June 15:30 is 13:30 UTC.
    expect(stockholmWeekHour(new Date('2024-03-05T14:30:00Z'))).toEqual({ weekday: 1, hour: 15 });
    expect(stockholmWeekHour(new Date('2024-06-04T13:30:00Z'))).toEqual({ weekday: 1, hour: 15 });
    // Sunday 23:30 UTC in winter is already Monday 00:30 in Stockholm.
    expect(stockholmWeekHour(new Date('2024-03-03T23:30:00Z'))).toEqual({ weekday: 0, hour: 0 });
  });

  it('says nothing of an hour with fewer than three waits, and the median of the others', () => {
    const at = (iso: string, waitedMin: number) => ({
      joinedAt: new Date(iso),
      waitedMs: waitedMin * MINUTE,
    });
    const waits = drawCalmTimes([
      at('2024-03-05T14:05:00Z', 2),
      at('2024-03-05T14:40:00Z', 30),
      at('2024-03-12T14:10:00Z', 4),
      at('2024-03-12T14:20:00Z', 5),
      // Wednesday 10-11: two waits only.
      at('2024-03-06T09:10:00Z', 1),
      at('2024-03-13T09:10:00Z', 1),
    ]);
    expect(waits).toHaveLength(7);
    for (const day of waits) expect(day).toHaveLength(24);
    // Tuesday 15-16: waits of 2, 4, 5 and 30 minutes, median 4.5 minutes.
    expect(waits[1]![15]).toBe(270);
    expect(waits[2]![10]).toBeNull();
    expect(waits.flat().filter((w) => w !== null)).toEqual([270]);
  });

  it('is drawn again after the redraw time, not on every ask', async () => {
    let now = new Date();
    const draw = calmTimesOf(server.ctx.db, () => now);
    const channel = (
      await server.ctx.db
        .insertInto('channels')
        .values({ name: 'Ritad', system_type: 'chat' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const joined = new Date(now.getTime() - 2 * DAY);
    const { weekday, hour } = stockholmWeekHour(joined);
    expect((await draw(channel)).waits[weekday]![hour]).toBeNull();
    for (const waited of [3, 3, 3]) await chat(channel, joined, waited);
    expect((await draw(channel)).waits[weekday]![hour]).toBeNull();
    now = new Date(now.getTime() + CALM_TIMES_REDRAW_MS);
    expect((await draw(channel)).waits[weekday]![hour]).toBe(180);
  });
});

describe('GET calmTimes', () => {
  it("answers the channel's typical waits of the last four weeks: taken chats of that channel only", async () => {
    const joined = new Date(Date.now() - 3 * DAY);
    joined.setUTCMinutes(5, 0, 0);
    const { weekday, hour } = stockholmWeekHour(joined);
    // Three weeks running at the same hour: 2, 6 and 10 minutes.
    for (const [weeksAgo, waited] of [
      [0, 2],
      [1, 6],
      [2, 10],
    ] as const) {
      await chat(chatChannel, sameHourWeeksBefore(joined, weeksAgo), waited);
    }
    // None of these count: five weeks ago, untaken, another channel, a mail.
    await chat(chatChannel, new Date(joined.getTime() - 5 * 7 * DAY), 60);
    await chat(chatChannel, joined, null);
    await chat(null, joined, 60);
    await chat(chatChannel, joined, 60, 'mail');

    const res = await api(server.url, `${CALM}?channel=${chatChannel}`, { token: child });
    expect(res.status).toBe(200);
    const times = res.body as unknown as CalmTimes;
    expect(Object.keys(times).sort()).toEqual(['channel', 'drawnAt', 'waits']);
    expect(times.channel).toBe(chatChannel);
    expect(times.waits[weekday]![hour]).toBe(360);
    expect(times.waits.flat().filter((w) => w !== null)).toEqual([360]);

    // The chats without a channel are a channel of their own: one wait is too few.
    const none = (await api(server.url, CALM, { token: child })).body as unknown as CalmTimes;
    expect(none.channel).toBeNull();
    expect(none.waits.flat().every((w) => w === null)).toBe(true);
  });

  it('is refused without a child token, and for a channel that does not exist', async () => {
    expect((await api(server.url, `${CALM}?channel=${chatChannel}`)).status).toBe(401);
    const staff = (await login(server.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token;
    expect((await api(server.url, `${CALM}?channel=${chatChannel}`, { token: staff })).status).toBe(403);
    expect((await api(server.url, `${CALM}?channel=987654`, { token: child })).status).toBe(404);
    expect((await api(server.url, `${CALM}?channel=abc`, { token: child })).status).toBe(400);
    expect(
      (await api(server.url, CALM.replace('conversationsapplication-id', 'another-app'), { token: child }))
        .status,
    ).toBe(404);
  });
});
