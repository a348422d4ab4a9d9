import { CONVERSATION_STATE } from '../../contract/conversation-state.ts';
import type { AppContext } from '../context.ts';
import { addMessage, resolveConversation } from './writes.ts';
import { conversationChanged } from './changed.ts';

/**
 * SPEC §9 "Chat limited to 45 minutes once per day", read as a daily budget: a child has 45 minutes
 * of live one-to-one chat per calendar day in Europe/Stockholm. A chat goes live with the
 * counsellor's first message (SPEC §4 Active), and its end is fixed then: the moment the day's budget
 * is used up, counting the live time of the child's earlier chats that day. As the server already
 * allows one completed chat a day (chatAccountStatus), this is in practice 45 minutes from the first
 * counsellor message; the budget also covers a live chat that was cancelled rather than resolved. A
 * chat that goes live before midnight keeps the end it got then.
 */

/** The system message that ends a chat at the limit (ours: SPEC gives no text). */
export const CHAT_LIMIT_REACHED_TEXT = 'Chatten har avslutats eftersom tiden för i dag är slut.';

const STOCKHOLM = 'Europe/Stockholm';
const parts = new Intl.DateTimeFormat('en-US', {
  timeZone: STOCKHOLM,
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
});

/** Stockholm's wall clock at `at`, read as if it were UTC (its offset is the difference). */
export function stockholmWallClock(at: Date): number {
  const p = Object.fromEntries(parts.formatToParts(at).map((x) => [x.type, Number(x.value)]));
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
}

/** The start of the calendar day in Stockholm that `at` falls on (summer and winter time alike). */
export function stockholmDayStart(at: Date): Date {
  const wall = stockholmWallClock(at);
  const midnightWall = wall - (wall % 86_400_000);
  // Stockholm's clocks change at 02:00/03:00, never at midnight: midnight's offset is the one that
  // holds at midnight's instant, found from a first guess with the offset of `at`.
  const offset = wall - Math.floor(at.getTime() / 1000) * 1000;
  const guess = new Date(midnightWall - offset);
  return new Date(midnightWall - (stockholmWallClock(guess) - guess.getTime()));
}

/** Live chat time the child used on the day of `at`, in chats other than `exceptId`, up to `at`. */
async function usedToday(ctx: AppContext, contactId: number, exceptId: number, at: Date): Promise<number> {
  const dayStart = stockholmDayStart(at);
  const rows = await ctx.db
    .selectFrom('conversations')
    .select(['live_since', 'closed_date'])
    .where('contact_id', '=', contactId)
    .where('system_type', '=', 'chat')
    .where('meeting_id', 'is', null)
    .where('id', '!=', exceptId)
    .where('live_since', 'is not', null)
    .where((eb) => eb.or([eb('closed_date', 'is', null), eb('closed_date', '>', dayStart.toISOString())]))
    .execute();
  let used = 0;
  for (const r of rows) {
    const from = Math.max(Date.parse(r.live_since!), dayStart.getTime());
    const to = Math.min(r.closed_date ? Date.parse(r.closed_date) : at.getTime(), at.getTime());
    used += Math.max(0, to - from);
  }
  return used;
}

/**
 * A one-to-one chat goes live (the counsellor's first message, at `at`): its start and its end at the
 * day's limit are stored once. Conditional, so a second first message changes nothing.
 */
export async function startChatClock(ctx: AppContext, conversationId: number, at: string): Promise<void> {
  const row = await ctx.db
    .selectFrom('conversations')
    .select(['contact_id', 'system_type', 'meeting_id', 'live_since'])
    .where('id', '=', conversationId)
    .executeTakeFirst();
  if (!row || row.system_type !== 'chat' || row.meeting_id !== null || row.live_since !== null) return;
  if (row.contact_id === null) return;
  const start = new Date(at);
  const left = Math.max(
    0,
    ctx.config.chatLimitMs - (await usedToday(ctx, row.contact_id, conversationId, start)),
  );
  await ctx.db
    .updateTable('conversations')
    .set({ live_since: at, limit_ends_at: new Date(start.getTime() + left).toISOString() })
    .where('id', '=', conversationId)
    .where('live_since', 'is', null)
    .execute();
}

/**
 * Ends a chat whose time is up as a counsellor's resolve ends it (Resolved, the same hub events), with
 * the system message saying why. Only the call whose conditional update ends it writes the message,
 * so sweeps in several processes at once end it exactly once. Answers whether this call ended it.
 */
export async function endChatAtLimit(
  ctx: AppContext,
  conversationId: number,
  now = new Date(),
): Promise<boolean> {
  const ended = await resolveConversation(ctx.db, conversationId, { limitPassedAt: now.toISOString() });
  if (!ended) return false;
  await addMessage(ctx, {
    conversationId,
    authorKind: 'system',
    message: CHAT_LIMIT_REACHED_TEXT,
    partOfTheEnd: true,
  });
  // As the counsellor's resolve: the console watching it is subscribed, the queue never listed it.
  await conversationChanged(ctx, conversationId, { queue: false });
  return true;
}

/** A chat about to be written in: if its time is already up (the sweep not yet run), it ends now. */
export async function endChatIfPastLimit(
  ctx: AppContext,
  row: { id: number; state: string; limit_ends_at: string | null },
  now = new Date(),
): Promise<boolean> {
  if (row.state !== CONVERSATION_STATE.InProgress || row.limit_ends_at === null) return false;
  if (row.limit_ends_at > now.toISOString()) return false;
  return endChatAtLimit(ctx, row.id, now);
}

/**
 * The sweep (server/jobs/jobs.ts, in every process, and once at start so a restart ends what is
 * overdue): ends every live chat whose time is up. Answers how many this call ended.
 */
export async function endChatsPastLimit(ctx: AppContext, now = new Date()): Promise<number> {
  const due = await ctx.db
    .selectFrom('conversations')
    .select('id')
    .where('limit_ends_at', '<=', now.toISOString())
    .where('state', '=', CONVERSATION_STATE.InProgress)
    .execute();
  let ended = 0;
  for (const { id } of due) if (await endChatAtLimit(ctx, id, now)) ended++;
  return ended;
}
