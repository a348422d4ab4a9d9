import { QUEUED_STATES, isQueuedState } from '../../contract/conversation-state.ts';
import type { Db } from '../db/database.ts';

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
