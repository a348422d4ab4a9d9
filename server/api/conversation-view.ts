import type { Selectable } from 'kysely';
import {
  unreachable,
  type Conversation,
  type ConversationMessageWire,
  type ConversationState,
  type MessageAuthorKind,
  type SystemType,
} from '../../contract/conversations.ts';
import { HUB_EVENTS, entityKey } from '../../contract/hub.ts';
import { FINAL_STATES, isFinalState } from '../../contract/conversation-state.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/database.ts';
import { nowIso } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { queuePosition } from './queue.ts';
import { CONVERSATION_STATE } from '../../contract/conversation-state.ts';

type ConversationRow = Selectable<Database['conversations']>;
type MessageRow = Selectable<Database['conversation_messages']>;

export async function toConversation(db: Db, c: ConversationRow): Promise<Conversation> {
  const count = await db
    .selectFrom('conversation_messages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('conversation_id', '=', c.id)
    .executeTakeFirstOrThrow();
  return {
    id: c.id,
    subject: c.subject,
    state: c.state as ConversationState,
    loggedDate: c.logged_date,
    closedDate: c.closed_date,
    readDate: c.contact_read_date,
    rating: c.rating,
    systemType: c.system_type as SystemType,
    messageCount: Number(count.n),
    lastAgentMessageDate: c.last_agent_message_date,
    lastContactMessageDate: c.last_contact_message_date,
    // A queued chat says where it stands, so a refetch never blanks the child's 'Köplats'.
    queuePosition: await queuePosition(db, c.id),
    channel: c.channel_id,
    meetingId: c.meeting_id,
  };
}

export function toMessage(m: MessageRow): ConversationMessageWire {
  return {
    id: m.id,
    conversation: m.conversation_id,
    message: m.message,
    loggedDate: m.logged_date,
    authorKind: m.author_kind as ConversationMessageWire['authorKind'],
    contactId: m.contact_id,
    contactName: m.author_kind === 'contact' ? m.author_name : null,
    agentId: m.agent_account_id,
    agentName: m.author_kind === 'agent' ? m.author_name : null,
    createdAfterClosedConversation: m.created_after_closed === 1,
  };
}

/** One message by id, for an idempotent replay; an erased message answers with what is left. */
export async function messageById(db: Db, id: number | null): Promise<ConversationMessageWire | null> {
  if (id === null) return null;
  const row = await db
    .selectFrom('conversation_messages')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? toMessage(row) : null;
}

export async function conversationById(db: Db, id: number | null): Promise<Conversation | null> {
  if (id === null) return null;
  const row = await db.selectFrom('conversations').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toConversation(db, row) : null;
}

export async function listMessages(db: Db, conversationId: number) {
  const rows = await db
    .selectFrom('conversation_messages')
    .selectAll()
    .where('conversation_id', '=', conversationId)
    .orderBy('logged_date', 'asc')
    .orderBy('id', 'asc')
    .execute();
  return rows.map(toMessage);
}

export interface NewMessage {
  conversationId: number;
  authorKind: MessageAuthorKind;
  message: string;
  contactId?: number | null;
  agentAccountId?: number | null;
  authorName?: string | null;
  loggedDate?: string;
}

/** What a new message stamps on its conversation (SPEC §3 lastAgentMessageDate, lastContactMessageDate). */
function stampOf(kind: MessageAuthorKind, logged: string) {
  switch (kind) {
    case 'agent':
      return { last_agent_message_date: logged };
    case 'contact':
      return { last_contact_message_date: logged };
    case 'bot':
    case 'system':
      return null;
    default:
      return unreachable(kind);
  }
}

/** Stores a message, stamps the conversation and tells its subscribers (SPEC §7 ConversationMessageCreated). */
export async function addMessage(ctx: AppContext, m: NewMessage): Promise<ConversationMessageWire> {
  const conversation = await ctx.db
    .selectFrom('conversations')
    .select('state')
    .where('id', '=', m.conversationId)
    .executeTakeFirstOrThrow();
  const logged = m.loggedDate ?? nowIso();
  const row = await ctx.db
    .insertInto('conversation_messages')
    .values({
      conversation_id: m.conversationId,
      author_kind: m.authorKind,
      contact_id: m.contactId ?? null,
      agent_account_id: m.agentAccountId ?? null,
      author_name: m.authorName ?? null,
      message: m.message,
      logged_date: logged,
      created_after_closed: isFinalState(conversation.state) ? 1 : 0,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const stamp = stampOf(m.authorKind, logged);
  if (stamp)
    await ctx.db.updateTable('conversations').set(stamp).where('id', '=', m.conversationId).execute();
  await ctx.hub.publishToEntity(entityKey('Conversation', m.conversationId), HUB_EVENTS.messageCreated, {
    conversationId: m.conversationId,
    messageId: row.id,
  });
  return toMessage(row);
}

/** Conversation.Updated to its subscribers and to its owner's account (whose chat may be minimised). */
export async function publishConversationUpdated(ctx: AppContext, conversationId: number) {
  const key = entityKey('Conversation', conversationId);
  const data = { conversationId };
  const owner = await ctx.db
    .selectFrom('conversations')
    .innerJoin('accounts', 'accounts.contact_id', 'conversations.contact_id')
    .select('accounts.id')
    .where('conversations.id', '=', conversationId)
    .executeTakeFirst();
  await Promise.all([
    ctx.hub.publishToEntity(key, HUB_EVENTS.conversationUpdated, data),
    owner ? ctx.hub.publishToAccount(owner.id, HUB_EVENTS.conversationUpdated, data, key) : undefined,
  ]);
}

/** Ends a conversation as Resolved (SPEC §4: ending an active chat resolves it); a final one stays as it is. */
export async function resolveConversation(ctx: AppContext, conversationId: number) {
  const res = await ctx.db
    .updateTable('conversations')
    .set({ state: CONVERSATION_STATE.Resolved, closed_date: nowIso() })
    .where('id', '=', conversationId)
    .where('state', 'not in', [...FINAL_STATES])
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 1) await publishConversationUpdated(ctx, conversationId);
}
