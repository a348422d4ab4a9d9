import { QUEUED_STATES, isQueuedState } from '../../contract/conversation-state.ts';
import type { AppContext } from '../context.ts';
import { QUEUE_RETURN_WITHIN_MS } from '../../contract/timings.ts';
import type { Db } from '../db/database.ts';
import { nowIso } from '../db/database.ts';
import { publishConversationUpdated } from './conversation-view.ts';
import { CONVERSATION_STATE } from '../../contract/conversation-state.ts';

/** SPEC §4/§9: a queued child must come back at least every 5 minutes to keep the place. */
export const QUEUE_PING_TIMEOUT_MS = QUEUE_RETURN_WITHIN_MS;
export const NO_PING_REASON = 'Ingen aktivitet på 5 minuter: platsen i kön släpptes.';

/** 1-based place in the channel's queue, in arrival order; null when not queued. */
export async function queuePosition(db: Db, conversationId: number): Promise<number | null> {
  const c = await db
    .selectFrom('conversations')
    .select(['id', 'channel_id', 'logged_date', 'state', 'system_type'])
    .where('id', '=', conversationId)
    .executeTakeFirst();
  if (!c || c.system_type !== 'chat' || !isQueuedState(c.state)) return null;
  const ahead = await db
    .selectFrom('conversations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('system_type', '=', 'chat')
    .where('state', 'in', [...QUEUED_STATES])
    .where((eb) =>
      c.channel_id === null ? eb('channel_id', 'is', null) : eb('channel_id', '=', c.channel_id),
    )
    .where((eb) =>
      eb.or([
        eb('logged_date', '<', c.logged_date),
        eb.and([eb('logged_date', '=', c.logged_date), eb('id', '<', c.id)]),
      ]),
    )
    .executeTakeFirstOrThrow();
  return Number(ahead.n) + 1;
}

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
    if (Number(res.numUpdatedRows) === 1) await publishConversationUpdated(ctx, id);
  }
  return stale.length;
}
