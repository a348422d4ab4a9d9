import { featuresOf } from '../config.ts';
import { NEUTRAL_AUTHOR_NAME, type PeerPostWire } from '../../contract/peers.ts';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { nowIso, type Db } from '../db/database.ts';
import { replyCounts, toPostWire } from './wire.ts';

/** The board shows this many of the newest published posts. */
const BOARD_TAKE = 100;

/**
 * Peers exists only in a variant with the peers feature: elsewhere its routes answer 404, before the
 * body is read (the routes are registered in every variant, so each server has the same surface to walk).
 */
export function peersOnly(ctx: AppContext) {
  return async () => {
    if (!featuresOf(ctx.config).peers) throw new ApiError('not_found');
  };
}

/** Non-blank after trimming, or 400. */
export function filled(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') throw new ApiError('validation');
  return trimmed;
}

/**
 * The name an author is shown by: the contact's name (SPEC §3, what the app greets with 'Hej ...!'),
 * never the login name, and the neutral one while none is chosen (the app asks for one before the
 * first post; a post queued offline before that still goes out). Kept with the item as written, as
 * a message keeps its author's name.
 */
export async function authorNameOf(db: Db, accountId: number): Promise<string> {
  const row = await db
    .selectFrom('accounts')
    .innerJoin('contacts', 'contacts.id', 'accounts.contact_id')
    .select('contacts.name')
    .where('accounts.id', '=', accountId)
    .executeTakeFirst();
  return row?.name || NEUTRAL_AUTHOR_NAME;
}

/**
 * What a new post or reply starts with: its author and their name as shown, pending until a
 * counsellor has read it (SPEC: Peers is moderated before anyone else sees it).
 */
export async function newPendingItem(db: Db, accountId: number) {
  return {
    author_account_id: accountId,
    author_name: await authorNameOf(db, accountId),
    state: 'pending' as const,
    reject_reason: null,
    created_date: nowIso(),
    published_date: null,
  };
}

export async function board(db: Db, accountId: number): Promise<PeerPostWire[]> {
  const rows = await db
    .selectFrom('peer_posts')
    .selectAll()
    .where('state', '=', 'published')
    .orderBy('published_date', 'desc')
    .orderBy('id', 'desc')
    .limit(BOARD_TAKE)
    .execute();
  const counts = await replyCounts(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toPostWire(r, counts.get(r.id) ?? 0, accountId));
}

/** The post a reply belongs to (the reply is known to exist). */
export async function postOfReply(db: AppContext['db'], replyId: number): Promise<number> {
  const row = await db
    .selectFrom('peer_replies')
    .select('post_id')
    .where('id', '=', replyId)
    .executeTakeFirstOrThrow();
  return row.post_id;
}
