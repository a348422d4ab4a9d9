import type { PeerModerationItem } from '../../contract/peers.ts';
import { IdParams } from '../../contract/schemas/common.ts';
import { NewPeerReplyBody, PeerItemParams, PeerRejectBody } from '../../contract/schemas/peers.ts';
import type { Api, AppContext, TypeBoxProvider } from '../context.ts';
import { ApiError } from '../errors.ts';
import { nowIso, type Db } from '../db/database.ts';
import { principalOf } from '../http/guard.ts';
import { createOnce, idempotent, recordKeyOf, type RecordKey } from '../http/idempotency.ts';
import { peerItemChanged } from './events.ts';
import { board, filled, peersOnly, authorNameOf, postOfReply } from './board.ts';
import { replyWireById, toReplyWire } from './wire.ts';

/** Posts and replies that wait for a counsellor, oldest first (reported ones among them). */
async function moderationQueue(db: Db): Promise<PeerModerationItem[]> {
  const posts = await db.selectFrom('peer_posts').selectAll().where('state', '=', 'pending').execute();
  const replies = await db
    .selectFrom('peer_replies')
    .innerJoin('peer_posts', 'peer_posts.id', 'peer_replies.post_id')
    .select([
      'peer_replies.id',
      'peer_replies.post_id',
      'peer_replies.text',
      'peer_replies.author_name',
      'peer_replies.created_date',
      'peer_replies.reported',
      'peer_posts.subject',
    ])
    .where('peer_replies.state', '=', 'pending')
    .execute();
  const items: PeerModerationItem[] = [
    ...posts.map((p) => ({
      kind: 'post' as const,
      id: p.id,
      postId: p.id,
      subject: p.subject,
      text: p.text,
      authorName: p.author_name,
      createdDate: p.created_date,
      reported: p.reported === 1,
    })),
    ...replies.map((r) => ({
      kind: 'reply' as const,
      id: r.id,
      postId: r.post_id,
      subject: r.subject,
      text: r.text,
      authorName: r.author_name,
      createdDate: r.created_date,
      reported: r.reported === 1,
    })),
  ];
  return items.sort((a, b) => a.createdDate.localeCompare(b.createdDate) || a.id - b.id);
}

/**
 * Approves or rejects one pending item: conditional on its state, so two counsellors deciding at
 * once cannot both act (the second gets 409).
 */
async function decide(
  ctx: AppContext,
  kind: 'posts' | 'replies',
  id: number,
  decision: { state: 'published' } | { state: 'rejected'; reason: string },
) {
  const table = kind === 'posts' ? 'peer_posts' : 'peer_replies';
  const row = await ctx.db
    .selectFrom(table)
    .select(['id', 'author_account_id', 'state', 'published_date'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw new ApiError('not_found');
  const postId = kind === 'posts' ? id : await postOfReply(ctx.db, id);
  const changes =
    decision.state === 'published'
      ? {
          state: 'published' as const,
          reject_reason: null,
          reported: 0,
          published_date: row.published_date ?? nowIso(),
        }
      : { state: 'rejected' as const, reject_reason: decision.reason, reported: 0 };
  const res = await ctx.db
    .updateTable(table)
    .set(changes)
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw new ApiError('conflict', row.state);
  await peerItemChanged(ctx, kind === 'posts' ? { postId } : { postId, replyId: id }, {
    ownerAccountId: row.author_account_id,
    board: decision.state === 'published',
    queue: true,
  });
  return { success: true };
}

/** A counsellor's reply: marked as staff and published at once (a counsellor needs no moderation). */
async function staffReply(
  ctx: AppContext,
  accountId: number,
  postId: number,
  text: string,
  record: RecordKey | undefined,
) {
  const post = await ctx.db
    .selectFrom('peer_posts')
    .select(['id', 'state'])
    .where('id', '=', postId)
    .executeTakeFirst();
  if (!post) throw new ApiError('not_found');
  if (post.state !== 'published') throw new ApiError('conflict', post.state);
  const now = nowIso();
  const authorName = await authorNameOf(ctx.db, accountId);
  const row = await createOnce(ctx.db, record, (trx) =>
    trx
      .insertInto('peer_replies')
      .values({
        post_id: postId,
        author_account_id: accountId,
        author_name: authorName,
        by_staff: 1,
        text: filled(text),
        state: 'published',
        reject_reason: null,
        created_date: now,
        published_date: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
  await peerItemChanged(ctx, { postId, replyId: row.id }, { board: true });
  return toReplyWire(row, accountId);
}

/** Peers moderation for counsellors: the queue, approve, reject with a reason, reply as staff. */
export async function registerPeerModerationRoutes(parent: Api, ctx: AppContext) {
  await parent.register(
    async (plugin) => {
      plugin.addHook('onRequest', peersOnly(ctx));
      const app = plugin.withTypeProvider<TypeBoxProvider>();
      app.get('/queue', async () => ({ value: await moderationQueue(ctx.db) }));
      // The board as young people see it, so a counsellor can pick a post to answer.
      app.get('/posts', async (req) => ({ value: await board(ctx.db, principalOf(req).accountId) }));
      app.post('/:kind/:id/approve', { schema: { params: PeerItemParams } }, async (req) =>
        decide(ctx, req.params.kind, req.params.id, { state: 'published' }),
      );
      app.post(
        '/:kind/:id/reject',
        { schema: { params: PeerItemParams, body: PeerRejectBody } },
        async (req) =>
          decide(ctx, req.params.kind, req.params.id, { state: 'rejected', reason: filled(req.body.reason) }),
      );
      app.post(
        '/posts/:id/replies',
        {
          preHandler: [
            idempotent(ctx, (id, req) => replyWireById(ctx.db, id, principalOf(req).accountId)),
            ctx.limits.preHandler('staffMessage'),
          ],
          schema: { params: IdParams, body: NewPeerReplyBody },
        },
        async (req, reply) =>
          reply
            .code(201)
            .send(
              await staffReply(
                ctx,
                principalOf(req).accountId,
                req.params.id,
                req.body.text,
                recordKeyOf(req),
              ),
            ),
      );
    },
    { prefix: '/peers' },
  );
}
