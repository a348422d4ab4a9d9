import { FINAL_STATES, isFinalState } from '../../contract/conversation-state.ts';
import { isMeetingOver } from '../../contract/meeting-state.ts';
import { connectionState } from '../../contract/connection-state.ts';
import type { ActivityType, ConversationConnectionWire } from '../../contract/conversations.ts';
import { MESSAGE_MAX_LENGTH_BY_CHANNEL } from '../../contract/limits.ts';
import {
  ActivityBody,
  AppParams,
  ConversationConnectionsQuery,
  ConversationListQuery,
  ConversationMessageBody,
  ConversationMessagesQuery,
  GroupConversationMessagesQuery,
} from '../../contract/schemas/conversations.ts';
import { HUB_EVENTS, entityKey } from '../../contract/hub.ts';
import type { Api, AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { nowIso } from '../db/database.ts';
import type { Principal } from '../auth/principal.ts';
import { principalOf } from '../http/guard.ts';
import { idempotent, recordKeyOf, type RecordKey } from '../http/idempotency.ts';
import { canSeeConversation } from '../auth/entity-access.ts';
import { APPLICATION_ID } from '../wire-ids.ts';
import { listMessagesSince, messageById, toConversation, toConversations } from './wire.ts';
import { addMessage } from './writes.ts';
import { conversationChanged } from './changed.ts';
import { endChatIfPastLimit } from './chat-limit.ts';
import { visibleSeriesIds } from '../auth/entity-access.ts';

const BASE = '/features/conversations/:appId';

function checkApp(appId: string) {
  if (appId !== APPLICATION_ID) throw new ApiError('not_found');
}

/** The conversation if this user may see it: 404 when missing, 403 when it is someone else's. */
async function conversationFor(ctx: AppContext, principal: Principal, id: number) {
  const row = await ctx.db.selectFrom('conversations').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new ApiError('not_found');
  if (!(await canSeeConversation(ctx.db, principal, id))) throw new ApiError('forbidden');
  return row;
}

async function contactName(ctx: AppContext, contactId: number) {
  const row = await ctx.db
    .selectFrom('contacts')
    .select('name')
    .where('id', '=', contactId)
    .executeTakeFirst();
  return row?.name ?? '';
}

/** The user's conversations (their own chats and mail, and their groups' chats), or the one asked for. */
async function listConversations(ctx: AppContext, principal: Principal, query: ConversationListQuery) {
  const { db } = ctx;
  if (query.conversation !== undefined) {
    const one = query.conversation;
    const row = await db.selectFrom('conversations').selectAll().where('id', '=', one).executeTakeFirst();
    if (!row || !(await canSeeConversation(db, principal, one))) return [];
    return [await toConversation(db, row)];
  }
  const series = await visibleSeriesIds(db, principal.accountId);
  const meetingIds = series.length
    ? (
        await db
          .selectFrom('meetings')
          .select('id')
          .where('series_id', 'in', series)
          .where('deleted_date', 'is', null)
          .execute()
      ).map((m) => m.id)
    : [];
  let rows = db
    .selectFrom('conversations')
    .selectAll()
    .where((eb) =>
      meetingIds.length
        ? eb.or([eb('contact_id', '=', principal.contactId), eb('meeting_id', 'in', meetingIds)])
        : eb('contact_id', '=', principal.contactId),
    );
  if (query.selection === 'resolved') rows = rows.where('state', 'in', [...FINAL_STATES]);
  if (query.selection === 'active') rows = rows.where('state', 'not in', [...FINAL_STATES]);
  const take = Math.min(Math.max(query.take || 9999, 1), 9999);
  const page = await rows
    .orderBy('logged_date', 'desc')
    .limit(take)
    .offset(Math.max(query.skip || 0, 0))
    .execute();
  return toConversations(db, page);
}

/**
 * A group chat takes messages while its meeting runs: once the leader ended the chat or the meeting
 * is over (completed or cancelled), a participant's message is refused (409 'ended') instead of
 * being added as late, as a one-to-one chat's is; its history stays readable ('Se chatthistorik').
 */
async function refuseIfGroupChatEnded(ctx: AppContext, row: { meeting_id: number | null; state: string }) {
  const meeting = await ctx.db
    .selectFrom('meetings')
    .select('state')
    .where('id', '=', row.meeting_id!)
    .executeTakeFirst();
  if (isFinalState(row.state) || !meeting || isMeetingOver(meeting)) throw new ApiError('conflict', 'ended');
}

/** A message from the child or participant into a conversation they may see (SPEC §7 conversationmessage). */
async function writeMessage(
  ctx: AppContext,
  principal: Principal,
  body: ConversationMessageBody,
  record: RecordKey | undefined,
) {
  const row = await conversationFor(ctx, principal, body.conversation);
  const content = body.content.trim();
  if (content === '' || content.length > MESSAGE_MAX_LENGTH_BY_CHANNEL[row.system_type]) {
    throw new ApiError('validation');
  }
  if (row.meeting_id !== null) await refuseIfGroupChatEnded(ctx, row);
  // A chat whose time is up ends first if the sweep has not yet ended it: the message comes after.
  await endChatIfPastLimit(ctx, row);
  // The server's time of arrival, never the device's clock: a message written offline takes its place
  // after what others wrote meanwhile, the same place on every device.
  const message = await addMessage(
    ctx,
    {
      conversationId: row.id,
      authorKind: 'contact',
      message: content,
      contactId: principal.contactId,
      authorName: await contactName(ctx, principal.contactId),
    },
    record,
  );
  // A mail waits in the counsellors' queue again until answered; a chat's open window hears the
  // message itself, and the queue has nothing to learn from it.
  if (row.system_type === 'mail') await conversationChanged(ctx, row.id, { watchers: false });
  return message;
}

async function listConnections(ctx: AppContext, conversationId: number) {
  const rows = await ctx.db
    .selectFrom('conversation_connections')
    .selectAll()
    .where('conversation_id', '=', conversationId)
    .orderBy('id')
    .execute();
  return rows.map((c): ConversationConnectionWire => ({
    conversation: c.conversation_id,
    contact: c.contact_id,
    contactName: c.contact_name,
    connectedDate: c.connected_date,
    lastPingedDate: c.last_pinged_date,
    disconnectedDate: c.disconnected_date,
  }));
}

/** SPEC §7 Conversations: the calls shared by group chat and one-to-one chat. */
export function registerConversationRoutes(app: Api, ctx: AppContext) {
  const { db } = ctx;

  app.get(
    `${BASE}/conversations`,
    { schema: { params: AppParams, querystring: ConversationListQuery } },
    async (req) => {
      checkApp(req.params.appId);
      return { value: await listConversations(ctx, principalOf(req), req.query) };
    },
  );

  app.get(
    `${BASE}/messages`,
    { schema: { params: AppParams, querystring: ConversationMessagesQuery } },
    async (req) => {
      checkApp(req.params.appId);
      const row = await conversationFor(ctx, principalOf(req), req.query.conversation);
      return { value: await listMessagesSince(db, row.id, req.query.since) };
    },
  );

  app.get(
    '/groupconversationmessages',
    { schema: { querystring: GroupConversationMessagesQuery } },
    async (req) => {
      const row = await conversationFor(ctx, principalOf(req), req.query.conversationId);
      if (row.meeting_id === null) throw new ApiError('not_found');
      return { value: await listMessagesSince(db, row.id, req.query.since) };
    },
  );

  app.post(
    '/conversationmessage',
    {
      preHandler: [idempotent(ctx, (id) => messageById(db, id)), ctx.limits.preHandler('message')],
      schema: { body: ConversationMessageBody },
    },
    async (req, reply) =>
      reply.code(201).send(await writeMessage(ctx, principalOf(req), req.body, recordKeyOf(req))),
  );

  app.post(
    `${BASE}/activity`,
    {
      preHandler: [ctx.limits.preHandler('activity')],
      schema: { params: AppParams, body: ActivityBody },
    },
    async (req) => {
      checkApp(req.params.appId);
      const principal = principalOf(req);
      const row = await conversationFor(ctx, principal, req.body.conversation);
      await recordActivity(ctx, principal, row.id, req.body.type);
      return { success: true };
    },
  );

  app.get(
    `${BASE}/conversationConnections`,
    { schema: { params: AppParams, querystring: ConversationConnectionsQuery } },
    async (req) => {
      checkApp(req.params.appId);
      const row = await conversationFor(ctx, principalOf(req), req.query.conversation);
      return { value: await listConnections(ctx, row.id) };
    },
  );
}

/** Typing, presence (connect, ping, disconnect) and read marks of SPEC §4 and §7. */
async function recordActivity(
  ctx: AppContext,
  principal: Principal,
  conversationId: number,
  type: ActivityType,
) {
  const key = entityKey('Conversation', conversationId);
  const name = await contactName(ctx, principal.contactId);
  const now = nowIso();
  const data = { conversationId, contactId: principal.contactId, contactName: name };
  if (type === 'Typing') return ctx.hub.publishToEntity(key, HUB_EVENTS.contactIsTyping, data);
  if (type === 'Read') {
    await ctx.db
      .updateTable('conversations')
      .set({ contact_read_date: now })
      .where('id', '=', conversationId)
      .where('contact_id', '=', principal.contactId)
      .execute();
    return;
  }
  if (type !== 'Connect' && type !== 'Ping' && type !== 'Disconnect') return;
  const existing = await ctx.db
    .selectFrom('conversation_connections')
    .selectAll()
    .where('conversation_id', '=', conversationId)
    .where('contact_id', '=', principal.contactId)
    .executeTakeFirst();
  const changes =
    type === 'Connect'
      ? { connected_date: now, last_pinged_date: now }
      : type === 'Ping'
        ? { last_pinged_date: now, ...(existing?.connected_date ? {} : { connected_date: now }) }
        : { disconnected_date: now };
  if (existing) {
    await ctx.db
      .updateTable('conversation_connections')
      .set({ ...changes, contact_name: name })
      .where('id', '=', existing.id)
      .execute();
  } else {
    await ctx.db
      .insertInto('conversation_connections')
      .values({
        conversation_id: conversationId,
        contact_id: principal.contactId,
        contact_name: name,
        connected_date: null,
        last_pinged_date: null,
        disconnected_date: null,
        ...changes,
      })
      .execute();
  }
  await ctx.db
    .updateTable('conversations')
    .set({ last_contact_ping_date: now })
    .where('id', '=', conversationId)
    .where('contact_id', '=', principal.contactId)
    .execute();
  // A Ping from someone who was not Connected by the SPEC §4 rule (disconnected, or silent for more
  // than 2 minutes) is a return: the others hear of it now, not at their next presence refresh.
  const wasAway =
    !existing ||
    connectionState(
      {
        connectedDate: existing.connected_date,
        lastPingedDate: existing.last_pinged_date,
        disconnectedDate: existing.disconnected_date,
      },
      new Date(now),
    ) !== 'Connected';
  if (type === 'Disconnect') await ctx.hub.publishToEntity(key, HUB_EVENTS.contactDisconnected, data);
  else if (type === 'Connect' || wasAway)
    await ctx.hub.publishToEntity(key, HUB_EVENTS.contactConnected, data);
}
