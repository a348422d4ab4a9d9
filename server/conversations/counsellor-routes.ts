import { ageFromBirthYear, userAuthorLabel } from '../../contract/profile.ts';
import { PROPERTY_ID_MAP } from '../wire-ids.ts';
import { FINAL_STATES, QUEUED_STATES } from '../../contract/conversation-state.ts';
import { HUB_EVENTS, entityKey } from '../../contract/hub.ts';
import type { Api, AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import type { Principal } from '../auth/principal.ts';
import { idempotent, recordKeyOf, type RecordKey } from '../http/idempotency.ts';
import { listMessages, messageById, toConversation, toConversations } from './wire.ts';
import { addStaffMessage, resolveConversation } from './writes.ts';
import { conversationChanged } from './changed.ts';
import { endChatIfPastLimit, startChatClock } from './chat-limit.ts';
import { notify } from '../notifications/notify.ts';
import { NEW_MESSAGE_NOTIFICATION } from '../../contract/notifications.ts';
import { IdParams } from '../../contract/schemas/common.ts';
import { StaffMessageBody } from '../../contract/schemas/staff.ts';
import { MESSAGE_MAX_LENGTH_BY_CHANNEL } from '../../contract/limits.ts';
import { counsellorMaySee } from '../auth/entity-access.ts';
import { CONVERSATION_STATE, CONVERSATION_STATES } from '../../contract/conversation-state.ts';
import { inChunks } from '../db/database.ts';
import { threadNotice, yourTurnNotice } from '../../contract/system-notices.ts';
import { featuresOf } from '../config.ts';
import { counsellorOf, oneToOne, requireOwn, type ConversationRow } from './held.ts';

/**
 * Conversations as the staff API lists them: with the child's conversation properties and author
 * label, in a fixed number of statements however long the list.
 */
async function withProperties(ctx: AppContext, rows: ConversationRow[]) {
  const ids = rows.map((r) => r.id);
  const contactIds = [...new Set(rows.map((r) => r.contact_id).filter((c): c is number => c !== null))];
  const props: Array<{ conversation_id: number; property_id: string; value: string }> = [];
  for (const part of inChunks(ids)) {
    props.push(
      ...(await ctx.db
        .selectFrom('conversation_properties')
        .selectAll()
        .where('conversation_id', 'in', part)
        .execute()),
    );
  }
  const profiles: Array<{ contact_id: number; property_id: string; value: string }> = [];
  for (const part of inChunks(contactIds)) {
    profiles.push(
      ...(await ctx.db
        .selectFrom('contact_properties')
        .select(['contact_id', 'property_id', 'value'])
        .where('contact_id', 'in', part)
        .where('property_id', 'in', [PROPERTY_ID_MAP.gender, PROPERTY_ID_MAP.birthYear])
        .execute()),
    );
  }
  const wires = await toConversations(ctx.db, rows);
  return wires.map((wire, i) => {
    const row = rows[i]!;
    return {
      ...wire,
      properties: Object.fromEntries(
        props.filter((p) => p.conversation_id === row.id).map((p) => [p.property_id, p.value]),
      ),
      authorLabel: authorLabelOf(profiles.filter((p) => p.contact_id === row.contact_id)),
    };
  });
}

/** SPEC §3 author label from the child's profile (gender and birth year), as the child's history shows it. */
function authorLabelOf(profile: Array<{ property_id: string; value: string }>): string {
  const value = (id: string) => profile.find((p) => p.property_id === id)?.value;
  return userAuthorLabel(value(PROPERTY_ID_MAP.gender), ageFromBirthYear(value(PROPERTY_ID_MAP.birthYear)));
}

/** Every state but the final ones: what the queue looks among (an index on state finds them). */
const OPEN_STATES = CONVERSATION_STATES.filter((s) => !(FINAL_STATES as readonly string[]).includes(s));

/** Queued chats per channel in arrival order, plus mail that waits for an answer. */
async function queue(ctx: AppContext, principal: Principal) {
  const rows = await ctx.db
    .selectFrom('conversations')
    .selectAll()
    // Implied by both branches below; said once as an IN list, so the state index serves the query.
    .where('state', 'in', OPEN_STATES)
    .where('meeting_id', 'is', null)
    .where('contact_id', 'is not', null)
    .where((eb) =>
      eb.or([
        eb.and([
          eb('system_type', '=', 'chat'),
          eb('state', 'in', [...QUEUED_STATES]),
          eb('agent_account_id', 'is', null),
        ]),
        // Mail waits until a counsellor has answered the child's latest message.
        eb.and([
          eb('system_type', '=', 'mail'),
          // A mail someone answered is theirs when the child writes again.
          eb.or([eb('agent_account_id', 'is', null), eb('agent_account_id', '=', principal.accountId)]),
          eb.or([
            eb('last_agent_message_date', 'is', null),
            eb('last_contact_message_date', '>', eb.ref('last_agent_message_date')),
          ]),
        ]),
      ]),
    )
    .orderBy('logged_date', 'asc')
    .orderBy('id', 'asc')
    .execute();
  return withProperties(ctx, rows);
}

/** The conversations the counsellor holds, newest first. */
async function ownConversations(ctx: AppContext, principal: Principal) {
  const rows = await ctx.db
    .selectFrom('conversations')
    .selectAll()
    .where('agent_account_id', '=', principal.accountId)
    .where('meeting_id', 'is', null)
    .orderBy('logged_date', 'desc')
    .limit(200)
    .execute();
  // With the child's properties, so an accepted chat still shows who the counsellor talks to.
  return withProperties(ctx, rows);
}

async function messages(ctx: AppContext, principal: Principal, id: number) {
  const row = await oneToOne(ctx, id);
  if (!counsellorMaySee(row, principal.accountId)) throw new ApiError('forbidden');
  return listMessages(ctx.db, row.id);
}

/** Takes a queued chat: conditional, so two counsellors accepting at once cannot both get it. */
async function accept(ctx: AppContext, principal: Principal, id: number) {
  const row = await oneToOne(ctx, id);
  if (!counsellorMaySee(row, principal.accountId)) throw new ApiError('forbidden');
  const res = await ctx.db
    .updateTable('conversations')
    .set({ state: CONVERSATION_STATE.InProgress, agent_account_id: principal.accountId })
    .where('id', '=', row.id)
    .where('state', 'in', [...QUEUED_STATES])
    .where('agent_account_id', 'is', null)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw new ApiError('conflict', 'not in the queue');
  // 'Det är din tur' to the child's devices, for a child who closed the app while waiting.
  const owner = await childAccountOf(ctx, row);
  if (owner) ctx.push.notify(owner, yourTurnNotice(row.id), 'your-turn');
  // The colleagues who watched it in the queue see it leave the queue, and then nothing more.
  await conversationChanged(ctx, row.id);
  await ctx.hub.unsubscribeOtherStaff(entityKey('Conversation', row.id), principal.accountId);
  const fresh = await ctx.db
    .selectFrom('conversations')
    .selectAll()
    .where('id', '=', row.id)
    .executeTakeFirstOrThrow();
  return toConversation(ctx.db, fresh);
}

/**
 * Who may write: a chat only by the counsellor who accepted it, while it is live; a mail by whoever
 * answers it first (the answer claims it), and then only by them.
 */
async function claimForAnswer(ctx: AppContext, principal: Principal, row: ConversationRow) {
  if (row.system_type === 'chat') {
    // A chat whose time is up ends now if the sweep has not yet ended it (SPEC §9 daily limit).
    if (await endChatIfPastLimit(ctx, row)) throw new ApiError('conflict', 'the chat has ended');
    if (row.state !== CONVERSATION_STATE.InProgress || row.agent_account_id !== principal.accountId) {
      throw new ApiError('conflict', 'accept the chat first');
    }
    return;
  }
  if (row.system_type !== 'mail') return;
  const claimed = await ctx.db
    .updateTable('conversations')
    .set({ agent_account_id: principal.accountId })
    .where('id', '=', row.id)
    .where((eb) =>
      eb.or([eb('agent_account_id', 'is', null), eb('agent_account_id', '=', principal.accountId)]),
    )
    .where('state', 'not in', [...FINAL_STATES])
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) throw new ApiError('forbidden');
}

/** An answered mail is Responded, and the child is notified (they are not in a live window). */
async function markMailAnswered(ctx: AppContext, principal: Principal, row: ConversationRow) {
  await ctx.db
    .updateTable('conversations')
    .set({ state: CONVERSATION_STATE.Responded, agent_account_id: principal.accountId })
    .where('id', '=', row.id)
    .execute();
  const owner = await childAccountOf(ctx, row);
  if (owner === null) return;
  await notify(ctx, owner, entityKey('Conversation', row.id), NEW_MESSAGE_NOTIFICATION);
  ctx.push.notify(owner, threadNotice(featuresOf(ctx.config), row.id), 'thread');
}

/** The account of the child a one-to-one conversation belongs to (none once erased). */
async function childAccountOf(ctx: AppContext, row: ConversationRow): Promise<number | null> {
  if (row.contact_id === null) return null;
  const owner = await ctx.db
    .selectFrom('accounts')
    .select('id')
    .where('contact_id', '=', row.contact_id)
    .executeTakeFirst();
  return owner?.id ?? null;
}

async function answer(
  ctx: AppContext,
  principal: Principal,
  id: number,
  body: StaffMessageBody,
  record: RecordKey | undefined,
) {
  const row = await oneToOne(ctx, id);
  const content = body.content.trim();
  if (!content || content.length > MESSAGE_MAX_LENGTH_BY_CHANNEL[row.system_type])
    throw new ApiError('validation');
  if (!counsellorMaySee(row, principal.accountId)) throw new ApiError('forbidden');
  await claimForAnswer(ctx, principal, row);
  const message = await addStaffMessage(ctx, principal, row.id, content, record);
  if (row.system_type === 'mail') await markMailAnswered(ctx, principal, row);
  // The first counsellor message makes a chat live: its day's limit starts counting (SPEC §9).
  else await startChatClock(ctx, row.id, message.loggedDate);
  // An answered mail leaves the queue; a chat was never in it once accepted.
  await conversationChanged(ctx, row.id, { queue: row.system_type === 'mail' });
  return message;
}

async function typing(ctx: AppContext, principal: Principal, id: number) {
  const row = await oneToOne(ctx, id);
  requireOwn(row, principal.accountId);
  await ctx.hub.publishToEntity(entityKey('Conversation', row.id), HUB_EVENTS.agentIsTyping, {
    conversationId: row.id,
  });
}

/** Only the counsellor who holds it ends a conversation; a colleague's chat is not theirs to end. */
async function resolve(ctx: AppContext, principal: Principal, id: number) {
  const row = await oneToOne(ctx, id);
  requireOwn(row, principal.accountId);
  // The console watching it is subscribed: the queue never listed a chat someone holds.
  if (await resolveConversation(ctx.db, row.id)) await conversationChanged(ctx, row.id, { queue: false });
}

/** The counsellor's side of one-to-one chat and mail (ARCHITECTURE.md staff API). */
export function registerCounsellorRoutes(app: Api, ctx: AppContext) {
  const byId = { schema: { params: IdParams } };

  app.get('/queue', async (req) => ({ value: await queue(ctx, counsellorOf(req)) }));
  app.get('/conversations', async (req) => ({ value: await ownConversations(ctx, counsellorOf(req)) }));
  app.get('/conversations/:id/messages', byId, async (req) => ({
    value: await messages(ctx, counsellorOf(req), req.params.id),
  }));
  app.post('/conversations/:id/accept', byId, async (req) => accept(ctx, counsellorOf(req), req.params.id));
  app.post(
    '/conversations/:id/messages',
    {
      preHandler: [idempotent(ctx, (id) => messageById(ctx.db, id)), ctx.limits.preHandler('staffMessage')],
      schema: { params: IdParams, body: StaffMessageBody },
    },
    async (req, reply) =>
      reply.code(201).send(await answer(ctx, counsellorOf(req), req.params.id, req.body, recordKeyOf(req))),
  );
  app.post(
    '/conversations/:id/typing',
    { preHandler: [ctx.limits.preHandler('activity')], schema: { params: IdParams } },
    async (req) => {
      await typing(ctx, counsellorOf(req), req.params.id);
      return { success: true };
    },
  );
  app.post('/conversations/:id/resolve', byId, async (req) => {
    await resolve(ctx, counsellorOf(req), req.params.id);
    return { success: true };
  });
}
