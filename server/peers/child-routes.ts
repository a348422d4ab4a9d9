import type { FastifyRequest } from 'fastify';
import { type PeerPostDetail, type PeerPostWire } from '../../contract/peers.ts';
import { IdParams } from '../../contract/schemas/common.ts';
import { NewPeerPostBody, NewPeerReplyBody, PeerReportBody } from '../../contract/schemas/peers.ts';
import type { Api, AppContext, TypeBoxProvider } from '../context.ts';
import { ApiError } from '../errors.ts';
import type { Db } from '../db/database.ts';
import type { Principal } from '../auth/principal.ts';
import { principalOf } from '../http/guard.ts';
import { createOnce, idempotent, recordKeyOf, type RecordKey } from '../http/idempotency.ts';
import { peerItemChanged } from './events.ts';
import { postWireById, replyCounts, replyWireById, toPostWire, toReplyWire } from './wire.ts';
import { board, filled, newPendingItem, peersOnly, postOfReply } from './board.ts';

async function myPosts(db: Db, accountId: number): Promise<PeerPostWire[]> {
  const rows = await db
    .selectFrom('peer_posts')
    .selectAll()
    .where('author_account_id', '=', accountId)
    .orderBy('created_date', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const counts = await replyCounts(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toPostWire(r, counts.get(r.id) ?? 0, accountId));
}

/** A post the caller may see: published, or their own in any state; else 404 (no hint that it exists). */
async function visiblePost(db: Db, accountId: number, id: number) {
  const row = await db.selectFrom('peer_posts').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row || (row.state !== 'published' && row.author_account_id !== accountId)) {
    throw new ApiError('not_found');
  }
  return row;
}

async function postDetail(db: Db, accountId: number, id: number): Promise<PeerPostDetail> {
  const row = await visiblePost(db, accountId, id);
  const replies = await db
    .selectFrom('peer_replies')
    .selectAll()
    .where('post_id', '=', id)
    .where((eb) => eb.or([eb('state', '=', 'published'), eb('author_account_id', '=', accountId)]))
    .orderBy('created_date', 'asc')
    .orderBy('id', 'asc')
    .execute();
  const count = replies.filter((r) => r.state === 'published').length;
  return { post: toPostWire(row, count, accountId), replies: replies.map((r) => toReplyWire(r, accountId)) };
}

async function createPost(
  ctx: AppContext,
  principal: Principal,
  subject: string,
  text: string,
  record: RecordKey | undefined,
) {
  const pending = await newPendingItem(ctx.db, principal.accountId);
  const row = await createOnce(ctx.db, record, (trx) =>
    trx
      .insertInto('peer_posts')
      .values({
        ...pending,
        subject: filled(subject),
        text: filled(text),
      })
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
  await peerItemChanged(ctx, { postId: row.id }, { queue: true });
  return toPostWire(row, 0, principal.accountId);
}

async function createReply(
  ctx: AppContext,
  principal: Principal,
  postId: number,
  text: string,
  record: RecordKey | undefined,
) {
  const post = await visiblePost(ctx.db, principal.accountId, postId);
  // The author sees their own pending post, but nobody can answer it before it is published.
  if (post.state !== 'published') throw new ApiError('conflict', post.state);
  const pending = await newPendingItem(ctx.db, principal.accountId);
  const row = await createOnce(ctx.db, record, (trx) =>
    trx
      .insertInto('peer_replies')
      .values({
        post_id: post.id,
        ...pending,
        text: filled(text),
      })
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
  await peerItemChanged(ctx, { postId: post.id, replyId: row.id }, { queue: true });
  return toReplyWire(row, principal.accountId);
}

/**
 * 'Anmäl': a published post or reply leaves the board and goes back to moderation until a counsellor
 * approves it again. One's own item is not reported (there is nothing to protect oneself from).
 */
async function report(ctx: AppContext, principal: Principal, kind: 'post' | 'reply', id: number) {
  const table = kind === 'post' ? 'peer_posts' : 'peer_replies';
  const row = await ctx.db
    .selectFrom(table)
    .select(['id', 'author_account_id', 'state'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row || row.state !== 'published') throw new ApiError('not_found');
  if (row.author_account_id === principal.accountId) throw new ApiError('forbidden');
  const postId = kind === 'post' ? id : await postOfReply(ctx.db, id);
  if (kind === 'reply') await visiblePost(ctx.db, principal.accountId, postId);
  const res = await ctx.db
    .updateTable(table)
    .set({ state: 'pending', reported: 1 })
    .where('id', '=', id)
    .where('state', '=', 'published')
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) return;
  await peerItemChanged(ctx, kind === 'post' ? { postId } : { postId, replyId: id }, {
    ownerAccountId: row.author_account_id,
    board: true,
    queue: true,
  });
}

const accountOf = (req: FastifyRequest) => principalOf(req).accountId;

/** Peers for young people: the board, one's own posts, writing, replying, reporting. */
export async function registerPeerPostRoutes(parent: Api, ctx: AppContext) {
  const { db } = ctx;
  await parent.register(
    async (plugin) => {
      plugin.addHook('onRequest', peersOnly(ctx));
      const app = plugin.withTypeProvider<TypeBoxProvider>();

      app.get('/posts', async (req) => ({ value: await board(db, accountOf(req)) }));
      app.get('/my-posts', async (req) => ({ value: await myPosts(db, accountOf(req)) }));
      app.get('/posts/:id', { schema: { params: IdParams } }, async (req) =>
        postDetail(db, accountOf(req), req.params.id),
      );
      app.post(
        '/posts',
        {
          preHandler: [
            idempotent(ctx, (id, req) => postWireById(db, id, accountOf(req))),
            ctx.limits.preHandler('peerPost'),
          ],
          schema: { body: NewPeerPostBody },
        },
        async (req, reply) =>
          reply
            .code(201)
            .send(await createPost(ctx, principalOf(req), req.body.subject, req.body.text, recordKeyOf(req))),
      );
      app.post(
        '/posts/:id/replies',
        {
          preHandler: [
            idempotent(ctx, (id, req) => replyWireById(db, id, accountOf(req))),
            ctx.limits.preHandler('peerReply'),
          ],
          schema: { params: IdParams, body: NewPeerReplyBody },
        },
        async (req, reply) =>
          reply
            .code(201)
            .send(await createReply(ctx, principalOf(req), req.params.id, req.body.text, recordKeyOf(req))),
      );
      app.post(
        '/reports',
        { preHandler: [ctx.limits.preHandler('peerReport')], schema: { body: PeerReportBody } },
        async (req) => {
          await report(ctx, principalOf(req), req.body.kind, req.body.id);
          return { success: true };
        },
      );
    },
    { prefix: '/api/peers' },
  );
}
