import { CONVERSATION_STATES } from '../../contract/conversation-state.ts';
import {
  CALM_TIMES_MIN_SAMPLES,
  CALM_TIMES_WEEKS,
  HOURS,
  WEEKDAYS,
  type CalmTimes,
} from '../../contract/calm-times.ts';
import type { Db } from '../db/database.ts';
import { stockholmWallClock } from './chat-limit.ts';

/**
 * 'När är det lugnast?' (contract/calm-times.ts): the typical wait of a channel's chats by the
 * Stockholm weekday and hour the child joined the queue, from the chats a counsellor took in the last
 * four weeks. A wait is the time from joining to the counsellor's first message (`live_since`), as
 * the estimated wait counts it (wait-estimate.ts). Chats left untaken say nothing of how long a wait
 * was and are not counted. Only durations leave the server.
 */

const DAY_MS = 86_400_000;
/** How long a drawing serves before it is drawn again (per channel and process). */
export const CALM_TIMES_REDRAW_MS = 10 * 60_000;

/** One taken chat: when it joined the queue and how long it waited (ms). */
export interface TakenWait {
  joinedAt: Date;
  waitedMs: number;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The weekday (0 = Monday) and hour of `at` on Stockholm's wall clock. */
export function stockholmWeekHour(at: Date): { weekday: number; hour: number } {
  const wall = new Date(stockholmWallClock(at));
  return { weekday: (wall.getUTCDay() + 6) % 7, hour: wall.getUTCHours() };
}

/** The 7 x 24 typical waits in whole seconds; null where an hour had too few waits. */
export function drawCalmTimes(waits: TakenWait[]): CalmTimes['waits'] {
  const cells: number[][][] = Array.from({ length: WEEKDAYS }, () => Array.from({ length: HOURS }, () => []));
  for (const { joinedAt, waitedMs } of waits) {
    const { weekday, hour } = stockholmWeekHour(joinedAt);
    cells[weekday]![hour]!.push(Math.max(0, waitedMs));
  }
  return cells.map((day) =>
    day.map((hour) => (hour.length < CALM_TIMES_MIN_SAMPLES ? null : Math.round(median(hour) / 1000))),
  );
}

/**
 * The taken chats of the channel that joined within the weeks before `now`. Every state as an IN
 * list, so that the (state, logged_date) index bounds the read to the weeks.
 */
export async function takenWaits(db: Db, channelId: number | null, now: Date): Promise<TakenWait[]> {
  const rows = await db
    .selectFrom('conversations')
    .select(['logged_date', 'live_since'])
    .where('state', 'in', [...CONVERSATION_STATES])
    .where('logged_date', '>=', new Date(now.getTime() - CALM_TIMES_WEEKS * 7 * DAY_MS).toISOString())
    .where('system_type', '=', 'chat')
    .where('live_since', 'is not', null)
    .where((eb) => (channelId === null ? eb('channel_id', 'is', null) : eb('channel_id', '=', channelId)))
    .execute();
  return rows.map((r) => ({
    joinedAt: new Date(r.logged_date),
    waitedMs: Date.parse(r.live_since!) - Date.parse(r.logged_date),
  }));
}

/** Draws a channel's calm times, each channel at most once per CALM_TIMES_REDRAW_MS. */
export function calmTimesOf(db: Db, now: () => Date = () => new Date()) {
  const drawn = new Map<number | null, { at: number; value: Promise<CalmTimes> }>();
  return (channel: number | null): Promise<CalmTimes> => {
    const at = now();
    const kept = drawn.get(channel);
    if (kept && at.getTime() - kept.at < CALM_TIMES_REDRAW_MS) return kept.value;
    const value = takenWaits(db, channel, at).then((waits) => ({
      channel,
      waits: drawCalmTimes(waits),
      drawnAt: at.toISOString(),
    }));
    // A failed read is not kept: the next ask reads again.
    value.catch(() => {
      if (drawn.get(channel)?.value === value) drawn.delete(channel);
    });
    drawn.set(channel, { at: at.getTime(), value });
    return value;
  };
}
