import { FINAL_STATES, isFinalState, QUEUED_STATES } from '../../contract/conversation-state.ts';
import { HUB_EVENTS, entityKey } from '../../contract/hub.ts';
import {
  MESSAGE_MAX_LENGTH_BY_CHANNEL,
  CANCEL_REASON_MAX_LENGTH,
  CONVERSATION_PROPERTY_MAX_LENGTH,
  SUBJECT_MAX_LENGTH,
} from '../../contract/limits.ts';
import type { Api, AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { isUniqueViolation, nowIso } from '../db/database.ts';
import type { Principal } from '../auth/principal.ts';
import { principalOf } from '../http/guard.ts';
import { eraseConversations } from './erasure.ts';
import { idempotent, recordKeyOf, type RecordKey } from '../http/idempotency.ts';
import { canSeeConversation } from '../auth/entity-access.ts';
import { APPLICATION_ID, PROPERTY_IDS } from '../wire-ids.ts';
import { conversationById, toConversation } from './wire.ts';
import { conversationRow, insertMessage, resolveConversation } from './writes.ts';
import { conversationChanged } from './changed.ts';
import { queuePosition } from './queue.ts';
import { estimatedWaitOf } from './wait-estimate.ts';
import { calmTimesOf } from './calm-times.ts';
import { stockholmDayStart } from './chat-limit.ts';
import {
  AppParams,
  CancelConversationBody,
  ChannelsQuery,
  ConversationRefBody,
  CreateConversationBody,
  QueuePositionQuery,
  RateConversationBody,
} from '../../contract/schemas/conversations.ts';
import { CONVERSATION_STATE } from '../../contract/conversation-state.ts';

const BASE = '/features/conversations/:appId';

function checkApp(appId: string) {
  if (appId !== APPLICATION_ID) throw new ApiError('not_found');
}

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
  // The day of SPEC §9's "once per day" is Stockholm's, as the daily chat limit's (chat-limit.ts).
  const startOfDay = stockholmDayStart(new Date());
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

/** Opens a chat or writes a mail (SPEC §7 POST {api}/chat, {api}/mail) and answers the conversation. */
async function openConversation(
  ctx: AppContext,
  principal: Principal,
  systemType: 'chat' | 'mail',
  body: CreateConversationBody,
  record: RecordKey | undefined,
) {
  const { db } = ctx;
  if (!principal.roles.includes('child')) throw new ApiError('forbidden');
  const text = (body.text ?? '').trim();
  if (systemType === 'mail' && text === '') throw new ApiError('validation');
  if (text.length > MESSAGE_MAX_LENGTH_BY_CHANNEL[systemType]) throw new ApiError('validation');
  if (systemType === 'chat') {
    const status = await chatAccountStatus(ctx, principal.contactId);
    if (status !== 'NoCompletedConversation') throw new ApiError('conflict', status);
  }
  const channel = await db
    .selectFrom('channels')
    .select('id')
    .where('system_type', '=', systemType)
    .executeTakeFirst();
  const name =
    text === ''
      ? null
      : await db
          .selectFrom('contacts')
          .select('name')
          .where('id', '=', principal.contactId)
          .executeTakeFirstOrThrow();
  const now = nowIso();
  // The conversation, its properties and its first message are stored together or not at all: a
  // fault halfway must not leave an empty mail behind that the retry then doubles.
  const row = await db.transaction().execute(async (trx) => {
    const created = await trx
      .insertInto('conversations')
      .values(
        conversationRow({
          contact_id: principal.contactId,
          channel_id: channel?.id ?? null,
          system_type: systemType,
          subject: (body.subject ?? '').slice(0, SUBJECT_MAX_LENGTH),
          state: CONVERSATION_STATE.New,
          logged_date: now,
          last_contact_ping_date: now,
        }),
      )
      .returningAll()
      .executeTakeFirstOrThrow()
      // A chat started at the same moment on another device won: one open chat per child.
      .catch((error: unknown) => {
        throw isUniqueViolation(error) ? new ApiError('conflict', 'HasActive') : error;
      });
    const properties = Object.entries(body.properties ?? {}).filter(([id]) => PROPERTY_IDS.includes(id));
    for (const [propertyId, value] of properties) {
      await trx
        .insertInto('conversation_properties')
        .values({
          conversation_id: created.id,
          property_id: propertyId,
          value: String(value).slice(0, CONVERSATION_PROPERTY_MAX_LENGTH),
        })
        .execute();
    }
    if (name) {
      await insertMessage(trx, {
        conversationId: created.id,
        authorKind: 'contact',
        message: text,
        contactId: principal.contactId,
        authorName: name.name,
      });
    }
    // The request's idempotency key is settled with the conversation, in its transaction: a step
    // below that fails (the announcements, the answer's read), or a process killed right after the
    // commit, leaves a key the retry replays instead of opening another.
    await record?.(trx, created.id);
    return created;
  });
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
}

/** Each channel with the length of its queue (SPEC §7 channels); one channel when asked for. */
async function listChannels(ctx: AppContext, channel: number | undefined) {
  const { db } = ctx;
  let query = db.selectFrom('channels').selectAll();
  if (channel !== undefined) query = query.where('id', '=', channel);
  const rows = await query.execute();
  return Promise.all(
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
}

/** The child leaves the queue or ends a mail thread, with a reason if they gave one. */
async function cancelConversation(ctx: AppContext, principal: Principal, body: CancelConversationBody) {
  const row = await ownConversation(ctx, principal, body.conversation);
  if (isFinalState(row.state)) throw new ApiError('conflict', 'already ended');
  await ctx.db
    .updateTable('conversations')
    .set({
      state: CONVERSATION_STATE.Cancelled,
      closed_date: nowIso(),
      cancel_reason: (body.reason ?? '').slice(0, CANCEL_REASON_MAX_LENGTH),
    })
    .where('id', '=', row.id)
    .execute();
  await conversationChanged(ctx, row.id);
}

async function endConversation(ctx: AppContext, principal: Principal, id: number) {
  const row = await ownConversation(ctx, principal, id);
  // The queue hears of it even when it had already ended, as the console may still list it.
  const resolved = await resolveConversation(ctx.db, row.id);
  await conversationChanged(ctx, row.id, { watchers: resolved });
}

/**
 * Deleting erases every message's content and detaches the conversation from the account, as the
 * confirmation promises (SPEC §8: removed from the account, detached from the username, cleared).
 */
async function deleteConversation(ctx: AppContext, principal: Principal, id: number) {
  const row = await ownConversation(ctx, principal, id);
  await ctx.db.transaction().execute((trx) => eraseConversations(trx, [row]));
  await conversationChanged(ctx, row.id);
}

async function rateConversation(ctx: AppContext, principal: Principal, body: RateConversationBody) {
  const row = await ownConversation(ctx, principal, body.conversation);
  await ctx.db.updateTable('conversations').set({ rating: body.rating }).where('id', '=', row.id).execute();
}

const SUCCESS = { success: true } as const;

/** SPEC §7 Conversations: one-to-one chat and mail of the child app. */
export function registerChatRoutes(app: Api, ctx: AppContext) {
  const { db } = ctx;
  const replay = (id: number | null) => conversationById(db, id);
  for (const systemType of ['chat', 'mail'] as const) {
    app.post(
      `/${systemType}`,
      {
        preHandler: [idempotent(ctx, replay), ctx.limits.preHandler(systemType)],
        schema: { body: CreateConversationBody },
      },
      async (req) => openConversation(ctx, principalOf(req), systemType, req.body, recordKeyOf(req, 200)),
    );
  }

  app.get('/chatAccountStatus', async (req, reply) => {
    const status = await chatAccountStatus(ctx, principalOf(req).contactId);
    if (status !== 'NoCompletedConversation') return reply.code(409).send({ status });
    return { status };
  });

  app.get(
    `${BASE}/queuePosition`,
    { schema: { params: AppParams, querystring: QueuePositionQuery } },
    async (req) => {
      checkApp(req.params.appId);
      const id = req.query.conversation;
      if (!(await canSeeConversation(db, principalOf(req), id))) throw new ApiError('forbidden');
      const place = await queuePosition(db, id);
      return { queuePosition: place, estimatedWait: await estimatedWaitOf(db, id, place) };
    },
  );

  // 'När är det lugnast?' (calm-times.ts): any signed-in user may ask; it names no one.
  const calmTimes = calmTimesOf(db);
  app.get(`${BASE}/calmTimes`, { schema: { params: AppParams, querystring: ChannelsQuery } }, async (req) => {
    checkApp(req.params.appId);
    const channel = req.query.channel ?? null;
    if (channel !== null) {
      const known = await db.selectFrom('channels').select('id').where('id', '=', channel).executeTakeFirst();
      if (!known) throw new ApiError('not_found');
    }
    return calmTimes(channel);
  });

  app.get(`${BASE}/channels`, { schema: { params: AppParams, querystring: ChannelsQuery } }, async (req) => {
    checkApp(req.params.appId);
    return { value: await listChannels(ctx, req.query.channel) };
  });

  app.put(`${BASE}/cancel`, { schema: { params: AppParams, body: CancelConversationBody } }, async (req) => {
    checkApp(req.params.appId);
    await cancelConversation(ctx, principalOf(req), req.body);
    return SUCCESS;
  });

  app.put(`${BASE}/resolve`, { schema: { params: AppParams, body: ConversationRefBody } }, async (req) => {
    checkApp(req.params.appId);
    await endConversation(ctx, principalOf(req), req.body.conversation);
    return SUCCESS;
  });

  app.put(`${BASE}/delete`, { schema: { params: AppParams, body: ConversationRefBody } }, async (req) => {
    checkApp(req.params.appId);
    await deleteConversation(ctx, principalOf(req), req.body.conversation);
    return SUCCESS;
  });

  app.put(`${BASE}/rate`, { schema: { params: AppParams, body: RateConversationBody } }, async (req) => {
    checkApp(req.params.appId);
    await rateConversation(ctx, principalOf(req), req.body);
    return SUCCESS;
  });
}
