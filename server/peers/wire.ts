import type { PeerPostWire, PeerReplyWire } from '../../contract/peers.ts';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import type { Selectable } from 'kysely';

export type PeerPostRow = Selectable<Database['peer_posts']>;
export type PeerReplyRow = Selectable<Database['peer_replies']>;

/**
 * Peer posts and replies as the wire carries them (contract/peers.ts): the reason of a rejection is
 * the author's alone, and a counsellor's reply carries no name.
 */
export function toPostWire(row: PeerPostRow, replyCount: number, accountId: number): PeerPostWire {
  const own = row.author_account_id === accountId;
  return {
    id: row.id,
    subject: row.subject,
    text: row.text,
    authorName: row.author_name,
    state: row.state,
    rejectReason: own && row.state === 'rejected' ? row.reject_reason : null,
    createdDate: row.created_date,
    publishedDate: row.published_date,
    replyCount,
    own,
  };
}

export function toReplyWire(row: PeerReplyRow, accountId: number): PeerReplyWire {
  const own = row.author_account_id === accountId;
  const byStaff = row.by_staff === 1;
  return {
    id: row.id,
    postId: row.post_id,
    text: row.text,
    authorName: byStaff ? null : row.author_name,
    byStaff,
    state: row.state,
    rejectReason: own && row.state === 'rejected' ? row.reject_reason : null,
    createdDate: row.created_date,
    own,
  };
}

/** Published replies per post, for the board's counts. */
export async function replyCounts(db: Db, postIds: number[]): Promise<Map<number, number>> {
  if (postIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('peer_replies')
    .select(['post_id', db.fn.countAll<number>().as('n')])
    .where('post_id', 'in', postIds)
    .where('state', '=', 'published')
    .groupBy('post_id')
    .execute();
  return new Map(rows.map((r) => [r.post_id, Number(r.n)]));
}

export async function postWireById(
  db: Db,
  id: number | null,
  accountId: number,
): Promise<PeerPostWire | null> {
  if (id === null) return null;
  const row = await db.selectFrom('peer_posts').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return null;
  return toPostWire(row, (await replyCounts(db, [id])).get(id) ?? 0, accountId);
}

export async function replyWireById(
  db: Db,
  id: number | null,
  accountId: number,
): Promise<PeerReplyWire | null> {
  if (id === null) return null;
  const row = await db.selectFrom('peer_replies').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toReplyWire(row, accountId) : null;
}
