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

interface QueueRow {
  id: number;
  channel_id: number | null;
  logged_date: string;
  state: string;
  system_type: string;
}

/**
 * The queue places of every queued chat among `rows` (others have none), in one statement: each
 * channel's queued chats in arrival order, as queuePosition counts them one by one.
 */
export async function queuePositions(db: Db, rows: QueueRow[]): Promise<Map<number, number>> {
  const queued = rows.filter((r) => r.system_type === 'chat' && isQueuedState(r.state));
  const positions = new Map<number, number>();
  if (queued.length === 0) return positions;
  const channels = [...new Set(queued.map((r) => r.channel_id))];
  const known = channels.filter((c): c is number => c !== null);
  const lines = await db
    .selectFrom('conversations')
    .select(['id', 'channel_id', 'logged_date'])
    .where('system_type', '=', 'chat')
    .where('state', 'in', [...QUEUED_STATES])
    .where((eb) =>
      eb.or([
        ...(known.length ? [eb('channel_id', 'in', known)] : []),
        ...(channels.includes(null) ? [eb('channel_id', 'is', null)] : []),
      ]),
    )
    .execute();
  lines.sort((a, b) =>
    a.logged_date < b.logged_date ? -1 : a.logged_date > b.logged_date ? 1 : a.id - b.id,
  );
  const ahead = new Map<number | null, number>();
  for (const line of lines) {
    const place = (ahead.get(line.channel_id) ?? 0) + 1;
    ahead.set(line.channel_id, place);
    positions.set(line.id, place);
  }
  return new Map(queued.map((r) => [r.id, positions.get(r.id) ?? 1]));
}
