import { CONVERSATION_STATE, QUEUED_STATES } from '../../contract/conversation-state.ts';
import { QUEUE_RETURN_WITHIN_MS } from '../../contract/timings.ts';
import type { AppContext } from '../context.ts';
import { nowIso } from '../db/database.ts';
import { conversationChanged } from '../conversations/changed.ts';

/** SPEC §4/§9: a queued child must come back at least every 5 minutes to keep the place. */
export const QUEUE_PING_TIMEOUT_MS = QUEUE_RETURN_WITHIN_MS;
export const NO_PING_REASON = 'Ingen aktivitet på 5 minuter: platsen i kön släpptes.';

/**
 * SPEC §4 unexpected Cancelled: a queued chat whose owner has not pinged for 5 minutes is cancelled.
 * Runs on a timer in every process; the conditional update makes concurrent sweeps harmless.
 */
export async function cancelAbandonedChats(ctx: AppContext): Promise<number> {
  const cutoff = new Date(Date.now() - QUEUE_PING_TIMEOUT_MS).toISOString();
  const stale = await ctx.db
    .selectFrom('conversations')
    .select('id')
    .where('system_type', '=', 'chat')
    .where('state', 'in', [...QUEUED_STATES])
    .where('last_contact_ping_date', '<', cutoff)
    .execute();
  for (const { id } of stale) {
    const res = await ctx.db
      .updateTable('conversations')
      .set({ state: CONVERSATION_STATE.Cancelled, closed_date: nowIso(), cancel_reason: NO_PING_REASON })
      .where('id', '=', id)
      .where('state', 'in', [...QUEUED_STATES])
      .executeTakeFirst();
    // The consoles that show it in the queue are subscribed to it, so its watchers are everyone.
    if (Number(res.numUpdatedRows) === 1) await conversationChanged(ctx, id, { queue: false });
  }
  return stale.length;
}
