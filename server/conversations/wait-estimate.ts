import { CONVERSATION_STATES } from '../../contract/conversation-state.ts';
import type { EstimatedWait } from '../../contract/conversations.ts';
import type { Db } from '../db/database.ts';

/**
 * A queued chat's estimated wait (docs/decisions.md "An honest estimated wait"): how long this
 * channel's children waited in the last hour, per place in the queue they joined at, times the
 * child's own place. From the conversations' own times only: no one is tracked for it.
 */

/** The hour whose finished waits count. */
export const WAIT_WINDOW_MS = 60 * 60_000;
/**
 * How far back the chats read reach: the hour, plus the longest wait that still counts (a chat
 * that waited longer than two hours is left out, and so is its part in others' places).
 */
export const WAIT_LOOKBACK_MS = 3 * 60 * 60_000;
/** Fewer finished waits than this in the hour: no estimate. */
export const MIN_WAIT_SAMPLES = 3;
/** Above this the estimate says only 'more than 30 minutes'. */
export const LONGEST_ESTIMATE_MINUTES = 30;

/** One chat of the channel as the queue saw it. */
export interface QueueHistoryRow {
  id: number;
  loggedDate: string;
  /** When a counsellor took it: the counsellor's first message (`live_since`); null if none yet. */
  takenAt: string | null;
  /** When it stopped waiting, taken or not (taken, cancelled, closed); null while it still waits. */
  leftAt: string | null;
}

/** The hour's figure: the mean wait per place, and the largest place a child waited at. */
export interface WaitFigure {
  msPerPlace: number;
  largestPlace: number;
  samples: number;
}

const time = (iso: string) => Date.parse(iso);

/** 1 + the chats that arrived before `row` and were still waiting when it arrived. */
function placeOnArrival(row: QueueHistoryRow, rows: QueueHistoryRow[]): number {
  const arrived = time(row.loggedDate);
  let ahead = 0;
  for (const other of rows) {
    const before =
      time(other.loggedDate) < arrived || (time(other.loggedDate) === arrived && other.id < row.id);
    if (before && (other.leftAt === null || time(other.leftAt) > arrived)) ahead += 1;
  }
  return ahead + 1;
}

/** The figure of the chats taken within the hour before `now`; null with fewer than 3 of them. */
export function waitFigure(rows: QueueHistoryRow[], now: Date): WaitFigure | null {
  const from = now.getTime() - WAIT_WINDOW_MS;
  const taken = rows.filter((r) => {
    if (r.takenAt === null) return false;
    const at = time(r.takenAt);
    return at >= from && at <= now.getTime();
  });
  if (taken.length < MIN_WAIT_SAMPLES) return null;
  let sum = 0;
  let largestPlace = 0;
  for (const row of taken) {
    const place = placeOnArrival(row, rows);
    const wait = Math.max(0, time(row.takenAt!) - time(row.loggedDate));
    sum += wait / place;
    largestPlace = Math.max(largestPlace, place);
  }
  return { msPerPlace: sum / taken.length, largestPlace, samples: taken.length };
}

/**
 * The estimate for a child at `place`: whole minutes rounded up (at least 1), or more than 30. Beyond
 * the places the hour saw, the figure says nothing about how fast such a queue moves, so there is no
 * estimate: a child second in a queue whose every chat of the hour was taken within seconds at place
 * 1 was told 'more than 30 minutes', which nothing in the data said.
 */
export function estimateWait(figure: WaitFigure | null, place: number): EstimatedWait {
  if (figure === null || place > figure.largestPlace) return null;
  const minutes = Math.max(1, Math.ceil((place * figure.msPerPlace) / 60_000));
  if (minutes > LONGEST_ESTIMATE_MINUTES) return { moreThan: LONGEST_ESTIMATE_MINUTES };
  return { minutes };
}

/**
 * The channel's chats of the lookback window. Every state as an IN list, so that the
 * (state, logged_date) index (conversations_state, migration 0006) bounds the read to the window.
 */
export async function queueHistory(db: Db, channelId: number | null, now: Date): Promise<QueueHistoryRow[]> {
  const rows = await db
    .selectFrom('conversations')
    .select(['id', 'logged_date', 'live_since', 'closed_date'])
    .where('state', 'in', [...CONVERSATION_STATES])
    .where('logged_date', '>=', new Date(now.getTime() - WAIT_LOOKBACK_MS).toISOString())
    .where('system_type', '=', 'chat')
    .where((eb) => (channelId === null ? eb('channel_id', 'is', null) : eb('channel_id', '=', channelId)))
    .execute();
  return rows.map((r) => ({
    id: r.id,
    loggedDate: r.logged_date,
    takenAt: r.live_since,
    // A chat taken but not yet written to still waits (SPEC §3 "in queue"): it has no leaving time.
    leftAt: r.live_since ?? r.closed_date,
  }));
}

/** The hour's figure of each channel asked for, one read each. */
export async function waitFigures(
  db: Db,
  channelIds: Array<number | null>,
  now = new Date(),
): Promise<Map<number | null, WaitFigure | null>> {
  const figures = new Map<number | null, WaitFigure | null>();
  for (const channel of new Set(channelIds)) {
    figures.set(channel, waitFigure(await queueHistory(db, channel, now), now));
  }
  return figures;
}

/** The estimate for a queued chat at `place` (GET .../queuePosition); null when not queued. */
export async function estimatedWaitOf(
  db: Db,
  conversationId: number,
  place: number | null,
): Promise<EstimatedWait> {
  if (place === null) return null;
  const row = await db
    .selectFrom('conversations')
    .select('channel_id')
    .where('id', '=', conversationId)
    .executeTakeFirst();
  if (!row) return null;
  const figures = await waitFigures(db, [row.channel_id]);
  return estimateWait(figures.get(row.channel_id) ?? null, place);
}
