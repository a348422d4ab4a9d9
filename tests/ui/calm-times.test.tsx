import './page-dom.ts';
import 'fake-indexeddb/auto';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { HOURS, WEEKDAYS, type CalmTimes } from '../../contract/calm-times.ts';
import { hideChatWindow } from '../../src/one-to-one-chat/chat-store.ts';
import { calmestStretch, shownHours } from '../../src/one-to-one-chat/calm-times-summary.ts';
import { CHILD_CHAT_TEXTS } from '../../src/one-to-one-chat/texts.ts';
import { stockholmWeekHour } from '../../server/conversations/calm-times.ts';
import { conversationRow } from '../../server/conversations/writes.ts';
import { useCounsellorTestEnv } from '../worker/child-helpers.ts';
import type { UiConnection } from './worker-connection.tsx';
import { childInTheQueue } from './child-in-the-queue.tsx';

/**
 * 'När är det lugnast?' in the queued chat's window (docs/decisions.md "When it is calm"): the
 * summary and the weekday's hours, from the real server's drawing of its own chats, through the real
 * worker core.
 */
const T = CHILD_CHAT_TEXTS.calm;
const env = useCounsellorTestEnv();
const connections: UiConnection[] = [];
afterEach(async () => {
  cleanup();
  hideChatWindow();
  await Promise.all(connections.splice(0).map((c) => c.dispose()));
});

const MINUTE = 60_000;

/** 7 x 24 empty hours with `set` filled in: [weekday, hour, seconds]. */
const week = (...set: Array<[number, number, number]>): CalmTimes['waits'] => {
  const waits = Array.from({ length: WEEKDAYS }, () =>
    Array.from({ length: HOURS }, () => null as number | null),
  );
  for (const [day, hour, seconds] of set) waits[day]![hour] = seconds;
  return waits;
};

describe('the calmest stretch of the week', () => {
  it('is the two hours in a row with the shortest mean wait, the earliest of equals', () => {
    expect(calmestStretch(week([1, 15, 60], [1, 16, 120], [3, 9, 30], [4, 20, 90], [4, 21, 90]))).toEqual({
      weekday: 1,
      from: 15,
      to: 17,
    });
    expect(calmestStretch(week([2, 10, 60], [2, 11, 60], [5, 10, 60], [5, 11, 60]))).toEqual({
      weekday: 2,
      from: 10,
      to: 12,
    });
  });

  it('is one hour when no two hours in a row have a wait, and nothing when no hour has one', () => {
    expect(calmestStretch(week([0, 8, 300], [6, 22, 200]))).toEqual({ weekday: 6, from: 22, to: 23 });
    expect(calmestStretch(week())).toBeNull();
    // 23-24 and the next day's 0-1 are not two hours in a row of one weekday.
    expect(calmestStretch(week([0, 23, 10], [1, 0, 10]))).toEqual({ weekday: 0, from: 23, to: 24 });
  });

  it('shows the hours from the earliest to the latest that has a wait on any day', () => {
    expect(shownHours(week([1, 15, 60], [4, 18, 90]))).toEqual([15, 16, 17, 18]);
    expect(shownHours(week())).toEqual([]);
  });
});

describe('the queued chat', () => {
  it("opens the channel's calm times from beside the wait: the summary and each hour of the chosen day", async () => {
    // Three chats three days ago at one hour, three at the next hour but one: an hour between without any.
    const joined = new Date(Date.now() - 3 * 86_400_000);
    joined.setUTCMinutes(10, 0, 0);
    const { weekday, hour } = stockholmWeekHour(joined);
    const channel = (
      await env.server.ctx.db
        .selectFrom('channels')
        .select('id')
        .where('system_type', '=', 'chat')
        .executeTakeFirstOrThrow()
    ).id;
    const taken = (at: Date, waitedMin: number) =>
      env.server.ctx.db
        .insertInto('conversations')
        .values(
          conversationRow({
            channel_id: channel,
            system_type: 'chat',
            subject: 'Chatt',
            state: 'Resolved',
            logged_date: at.toISOString(),
            live_since: new Date(at.getTime() + waitedMin * MINUTE).toISOString(),
          }),
        )
        .execute();
    const later = new Date(joined.getTime() + 2 * 60 * MINUTE);
    const laterHour = stockholmWeekHour(later);
    for (const waited of [4, 5, 9]) await taken(joined, waited);
    for (const waited of [12, 12, 12]) await taken(later, waited);

    const { window } = await childInTheQueue(env, connections);
    await userEvent.click(await within(window).findByRole('button', { name: T.link }));

    const calm = await screen.findByRole('dialog', { name: T.title });
    expect(await within(calm).findByText(T.intro)).toBeTruthy();
    // The later hour is on the same day unless the first was 22:10 or later.
    const sameDay = laterHour.weekday === weekday;
    await userEvent.click(within(calm).getByRole('button', { name: T.dayNames[weekday] }));
    expect(within(calm).getByRole('button', { name: T.dayNames[weekday] }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    const table = within(calm).getByRole('table', { name: T.caption(T.days[weekday]!) });
    const row = (h: number) => within(table).getByRole('row', { name: new RegExp(`^${T.hour(h)} `) });
    expect(within(row(hour)).getByText(T.wait(5 * 60))).toBeTruthy();
    if (sameDay) {
      expect(within(row(hour + 1)).getByText(T.tooLittle)).toBeTruthy();
      expect(within(row(laterHour.hour)).getByText(T.wait(12 * 60))).toBeTruthy();
    }
    // No two hours in a row have waits: the calmest single hour (a median of 5 minutes, not 12).
    expect(within(calm).getByText(T.summary(T.days[weekday]!, hour, hour + 1))).toBeTruthy();
  });
});
