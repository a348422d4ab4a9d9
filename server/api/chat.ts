import { FINAL_STATES, isFinalState, QUEUED_STATES } from '../../contract/conversation-state.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HUB_EVENTS, entityKey } from '../../contract/hub.ts';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { isUniqueViolation, nowIso } from '../db/database.ts';
import type { Principal } from '../auth/principal.ts';
import { principalOf } from './guard.ts';
import { eraseConversations } from '../security/erasure.ts';
import { idempotent } from './idempotency.ts';
import { canSeeConversation } from './entity-access.ts';
import { APPLICATION_ID, PROPERTY_IDS } from './runtime-config.ts';
import { conversationById, toConversation } from './conversation-wire.ts';
import { addMessage, resolveConversation } from './conversation-writes.ts';
import { conversationChanged } from './conversation-changed.ts';
import { queuePosition } from './queue.ts';
import { anyId, appParams, int, object, query, text } from './schemas.ts';
import { MESSAGE_MAX_LENGTH } from '../../contract/limits.ts';
import { CONVERSATION_STATE } from '../../contract/conversation-state.ts';

const BASE = '/features/conversations/:appId';

function checkApp(req: FastifyRequest) {
  if ((req.params as { appId?: string }).appId !== APPLICATION_ID) throw new ApiError('not_found');
}

const conversationBody = (extra: Record<string, object> = {}, required: string[] = []) =>
  object({ conversation: anyId, ...extra }, ['conversation', ...required]);

/** A one-to-one conversation the user owns (group chats are not cancelled, rated or deleted). */
async function ownConversation(ctx: AppContext, principal: Principal, id: number) {
  const row = await ctx.db.selectFrom('conversations').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new ApiError('not_found');
  if (row.contact_id !== principal.contactId || row.meeting_id !== null) throw new ApiError('forbidden');
  return row;
}

/** SPEC §3 Chat account status: HasActive, HasCompletedAConversation (today), or free to chat. */
export async function chatAccountStatus(ctx: AppContext, contactId: number) {
  const open = await ctx.db
    .selectFrom('conversations')
    .select('id')
    .where('contact_id', '=', contactId)
    .where('system_type', '=', 'chat')
    .where('state', 'not in', [...FINAL_STATES])
    .executeTakeFirst();
  if (open) return 'HasActive' as const;
  const startOfDay = new Date();
  startOfDay.setHours(0, 0, 0, 0);
  const today = await ctx.db
    .selectFrom('conversations')
    .select('id')
    .where('contact_id', '=', contactId)
    .where('system_type', '=', 'chat')
    .where('state', 'in', [CONVERSATION_STATE.Resolved, CONVERSATION_STATE.Closed])
    .where('last_agent_message_date', 'is not', null)
    .where('closed_date', '>=', startOfDay.toISOString())
    .executeTakeFirst();
  return today ? ('HasCompletedAConversation' as const) : ('NoCompletedConversation' as const);
}

/** SPEC §7 Conversations: one-to-one chat and mail of the child app. */
export function registerChatRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;

  const create = (systemType: 'chat' | 'mail') => async (req: FastifyRequest) => {
    const principal = principalOf(req);
    if (!principal.roles.includes('child')) throw new ApiError('forbidden');
    const body = (req.body ?? {}) as {
      subject?: string;
      text?: string;
      properties?: Record<string, unknown>;
    };
    const text = String(body.text ?? '').trim();
    if (systemType === 'mail' && text === '') throw new ApiError('validation');
    if (systemType === 'chat') {
      const status = await chatAccountStatus(ctx, principal.contactId);
      if (status !== 'NoCompletedConversation') throw new ApiError('conflict', status);
    }
    const channel = await db
      .selectFrom('channels')
      .select('id')
      .where('system_type', '=', systemType)
      .executeTakeFirst();
    const now = nowIso();
    const row = await db
      .insertInto('conversations')
      .values({
        contact_id: principal.contactId,
        channel_id: channel?.id ?? null,
        meeting_id: null,
        system_type: systemType,
        subject: String(body.subject ?? '').slice(0, 200),
        state: CONVERSATION_STATE.New,
        logged_date: now,
        closed_date: null,
        rating: null,
        agent_account_id: null,
        contact_read_date: null,
        last_agent_message_date: null,
        last_contact_message_date: null,
        last_contact_ping_date: now,
        cancel_reason: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
      // A chat started at the same moment on another device won: one open chat per child.
      .catch((error: unknown) => {
        throw isUniqueViolation(error) ? new ApiError('conflict', 'HasActive') : error;
      });
    const properties = Object.entries(body.properties ?? {}).filter(([id]) => PROPERTY_IDS.includes(id));
    for (const [propertyId, value] of properties) {
      await db
        .insertInto('conversation_properties')
        .values({ conversation_id: row.id, property_id: propertyId, value: String(value).slice(0, 500) })
        .execute();
    }
    if (text) {
      const name = await db
        .selectFrom('contacts')
        .select('name')
        .where('id', '=', principal.contactId)
        .executeTakeFirstOrThrow();
      await addMessage(ctx, {
        conversationId: row.id,
        authorKind: 'contact',
        message: text,
        contactId: principal.contactId,
        authorName: name.name,
      });
    }
    await ctx.hub.publishToAccount(
      principal.accountId,
      HUB_EVENTS.chatCreated,
      { conversationId: row.id },
      entityKey('Conversation', row.id),
    );
    // Nobody watches it yet: the child hears of it through ChatCreated, the counsellors in their queue.
    await conversationChanged(ctx, row.id, { watchers: false });
    const fresh = await db
      .selectFrom('conversations')
      .selectAll()
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    return toConversation(db, fresh);
  };
  const replay = (id: number | null) => conversationById(db, id);
  const createSchema = {
    body: object({
      subject: text(200),
      text: text(MESSAGE_MAX_LENGTH),
      properties: {
        type: 'object',
        additionalProperties: { type: ['string', 'number', 'boolean'], maxLength: 500 },
        maxProperties: 20,
      },
    }),
  };
  app.post(
    '/chat',
    {
      preHandler: [idempotent(ctx, replay), ctx.limits.preHandler('chat')],
      schema: createSchema,
    },
    create('chat'),
  );
  app.post(
    '/mail',
    {
      preHandler: [idempotent(ctx, replay), ctx.limits.preHandler('mail')],
      schema: createSchema,
    },
    create('mail'),
  );

  app.get('/chatAccountStatus', async (req, reply) => {
    const status = await chatAccountStatus(ctx, principalOf(req).contactId);
    if (status !== 'NoCompletedConversation') return reply.code(409).send({ status });
    return { status };
  });

  app.get(
    `${BASE}/queuePosition`,
    {
      schema: {
        params: appParams,
        querystring: query({ conversation: anyId, channel: anyId }, ['conversation']),
      },
    },
    async (req) => {
      checkApp(req);
      const id = (req.query as { conversation: number }).conversation;
      const principal = principalOf(req);
      if (!(await canSeeConversation(db, principal, id))) throw new ApiError('forbidden');
      return { queuePosition: await queuePosition(db, id) };
    },
  );

  app.get(
    `${BASE}/channels`,
    { schema: { params: appParams, querystring: query({ channel: anyId }) } },
    async (req) => {
      checkApp(req);
      const wanted = Number((req.query as { channel?: number }).channel);
      let query = db.selectFrom('channels').selectAll();
      if (Number.isInteger(wanted)) query = query.where('id', '=', wanted);
      const rows = await query.execute();
      const value = await Promise.all(
        rows.map(async (c) => {
          const queued = await db
            .selectFrom('conversations')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('channel_id', '=', c.id)
            .where('state', 'in', [...QUEUED_STATES])
            .executeTakeFirstOrThrow();
          return {
            id: c.id,
            name: c.name,
            systemType: c.system_type,
            isOpen: true,
            queueLength: Number(queued.n),
          };
        }),
      );
      return { value };
    },
  );

  app.put(
    `${BASE}/cancel`,
    { schema: { params: appParams, body: conversationBody({ reason: text(500) }) } },
    async (req) => {
      checkApp(req);
      const body = req.body as { conversation: number; reason?: string };
      const row = await ownConversation(ctx, principalOf(req), body.conversation);
      if (isFinalState(row.state)) throw new ApiError('conflict', 'already ended');
      await db
        .updateTable('conversations')
        .set({
          state: CONVERSATION_STATE.Cancelled,
          closed_date: nowIso(),
          cancel_reason: String(body.reason ?? '').slice(0, 500),
        })
        .where('id', '=', row.id)
        .execute();
      await conversationChanged(ctx, row.id);
      return { success: true };
    },
  );

  app.put(`${BASE}/resolve`, { schema: { params: appParams, body: conversationBody() } }, async (req) => {
    checkApp(req);
    const row = await ownConversation(
      ctx,
      principalOf(req),
      (req.body as { conversation: number }).conversation,
    );
    // The queue hears of it even when it had already ended, as the console may still list it.
    const resolved = await resolveConversation(db, row.id);
    await conversationChanged(ctx, row.id, { watchers: resolved });
    return { success: true };
  });

  // Deleting erases every message's content and detaches the conversation from the account, as the
  // confirmation promises (SPEC §8: removed from the account, detached from the username, cleared).
  app.put(`${BASE}/delete`, { schema: { params: appParams, body: conversationBody() } }, async (req) => {
    checkApp(req);
    const row = await ownConversation(
      ctx,
      principalOf(req),
      (req.body as { conversation: number }).conversation,
    );
    await db.transaction().execute((trx) => eraseConversations(trx, [row]));
    await conversationChanged(ctx, row.id);
    return { success: true };
  });

  app.put(
    `${BASE}/rate`,
    {
      schema: { params: appParams, body: conversationBody({ rating: int(1, 5) }, ['rating']) },
    },
    async (req) => {
      checkApp(req);
      const body = req.body as { conversation: number; rating: number };
      const row = await ownConversation(ctx, principalOf(req), body.conversation);
      const rating = body.rating;
      await db.updateTable('conversations').set({ rating }).where('id', '=', row.id).execute();
      return { success: true };
    },
  );
}
