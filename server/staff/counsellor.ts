import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HUB_EVENTS, entityKey } from '../../contract/hub.ts';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import type { Principal } from '../auth/principal.ts';
import { principalOf, requireStaff } from '../api/guard.ts';
import { idempotent } from '../api/idempotency.ts';
import {
  addMessage,
  listMessages,
  publishConversationUpdated,
  resolveConversation,
  toConversation,
} from '../api/conversation-view.ts';
import { QUEUED_STATES } from '../api/queue.ts';
import { notify } from '../api/notifications.ts';

const idOf = (req: FastifyRequest) => Number((req.params as { id: string }).id);

function requireCounsellor(principal: Principal) {
  if (!principal.roles.includes('counsellor')) throw new ApiError('forbidden');
}

async function oneToOne(ctx: AppContext, id: number) {
  const row = await ctx.db.selectFrom('conversations').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row || row.meeting_id !== null) throw new ApiError('not_found');
  return row;
}

/** The counsellor's side of one-to-one chat and mail (ARCHITECTURE.md staff API). */
export function registerCounsellorRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;
  const staff = requireStaff(ctx);

  /** Queued chats per channel in arrival order, plus unanswered mail. */
  app.get('/portal/staff/queue', { preHandler: staff }, async (req) => {
    requireCounsellor(principalOf(req));
    const rows = await db
      .selectFrom('conversations')
      .selectAll()
      .where('meeting_id', 'is', null)
      .where('contact_id', 'is not', null)
      .where('state', 'in', [...QUEUED_STATES])
      .orderBy('logged_date', 'asc')
      .orderBy('id', 'asc')
      .execute();
    const value = await Promise.all(
      rows.map(async (r) => {
        const props = await db
          .selectFrom('conversation_properties')
          .selectAll()
          .where('conversation_id', '=', r.id)
          .execute();
        return {
          ...(await toConversation(db, r)),
          properties: Object.fromEntries(props.map((p) => [p.property_id, p.value])),
        };
      }),
    );
    return { value };
  });

  app.get('/portal/staff/conversations', { preHandler: staff }, async (req) => {
    const principal = principalOf(req);
    requireCounsellor(principal);
    const rows = await db
      .selectFrom('conversations')
      .selectAll()
      .where('agent_account_id', '=', principal.accountId)
      .where('meeting_id', 'is', null)
      .orderBy('logged_date', 'desc')
      .limit(200)
      .execute();
    return { value: await Promise.all(rows.map((r) => toConversation(db, r))) };
  });

  app.get('/portal/staff/conversations/:id/messages', { preHandler: staff }, async (req) => {
    requireCounsellor(principalOf(req));
    const row = await oneToOne(ctx, idOf(req));
    return { value: await listMessages(db, row.id) };
  });

  app.post('/portal/staff/conversations/:id/accept', { preHandler: staff }, async (req) => {
    const principal = principalOf(req);
    requireCounsellor(principal);
    const row = await oneToOne(ctx, idOf(req));
    const res = await db
      .updateTable('conversations')
      .set({ state: 'InProgress', agent_account_id: principal.accountId })
      .where('id', '=', row.id)
      .where('state', 'in', [...QUEUED_STATES])
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw new ApiError('conflict', 'not in the queue');
    await publishConversationUpdated(ctx, row.id);
    const fresh = await db
      .selectFrom('conversations')
      .selectAll()
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    return toConversation(db, fresh);
  });

  app.post(
    '/portal/staff/conversations/:id/messages',
    { preHandler: [staff, idempotent(ctx)] },
    async (req, reply) => {
      const principal = principalOf(req);
      requireCounsellor(principal);
      const row = await oneToOne(ctx, idOf(req));
      const content = String((req.body as { content?: string } | undefined)?.content ?? '').trim();
      if (!content || content.length > 4000) throw new ApiError('validation');
      if (
        row.system_type === 'chat' &&
        (row.state !== 'InProgress' || row.agent_account_id !== principal.accountId)
      ) {
        throw new ApiError('conflict', 'accept the chat first');
      }
      const name = await db
        .selectFrom('contacts')
        .select('name')
        .where('id', '=', principal.contactId)
        .executeTakeFirstOrThrow();
      const message = await addMessage(ctx, {
        conversationId: row.id,
        authorKind: 'agent',
        message: content,
        agentAccountId: principal.accountId,
        authorName: name.name,
      });
      if (row.system_type === 'mail') {
        await db
          .updateTable('conversations')
          .set({ state: 'Responded', agent_account_id: principal.accountId })
          .where('id', '=', row.id)
          .execute();
        const owner = await db
          .selectFrom('accounts')
          .select('id')
          .where('contact_id', '=', row.contact_id)
          .executeTakeFirst();
        if (owner) await notify(ctx, owner.id, entityKey('Conversation', row.id), 'NewMessage');
      }
      await publishConversationUpdated(ctx, row.id);
      return reply.code(201).send(message);
    },
  );

  app.post('/portal/staff/conversations/:id/typing', { preHandler: staff }, async (req) => {
    const principal = principalOf(req);
    requireCounsellor(principal);
    const row = await oneToOne(ctx, idOf(req));
    await ctx.hub.publishToEntity(entityKey('Conversation', row.id), HUB_EVENTS.agentIsTyping, {
      conversationId: row.id,
    });
    return { success: true };
  });

  app.post('/portal/staff/conversations/:id/resolve', { preHandler: staff }, async (req) => {
    requireCounsellor(principalOf(req));
    const row = await oneToOne(ctx, idOf(req));
    await resolveConversation(ctx, row.id);
    return { success: true };
  });
}
