import {
  unreachable,
  type ConversationMessageWire,
  type MessageAuthorKind,
} from '../../contract/conversations.ts';
import { AUTHOR_KINDS } from '../../contract/author-kinds.ts';
import { HUB_EVENTS, entityKey, type MessageCreatedEventData } from '../../contract/hub.ts';
import { CONVERSATION_STATE, FINAL_STATES, isFinalState } from '../../contract/conversation-state.ts';
import type { AppContext } from '../context.ts';
import type { Insertable } from 'kysely';
import type { Db } from '../db/database.ts';
import { nowIso } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { toMessage } from './wire.ts';
import { createOnce, type RecordKey } from '../http/idempotency.ts';

export interface NewMessage {
  conversationId: number;
  authorKind: MessageAuthorKind;
  message: string;
  contactId?: number | null;
  agentAccountId?: number | null;
  authorName?: string | null;
  loggedDate?: string;
  /** The system message that says why a chat ended, written by the end itself: not "after the end". */
  partOfTheEnd?: boolean;
}

type ConversationInsert = Insertable<Database['conversations']>;

/**
 * A new conversation's row: what its kind decides, and the rest as every new conversation starts
 * (no counsellor, no messages, not closed). The one place that says so: a new column gets its
 * starting value here, for the chat, the mail, the group chat and the benchmarks' data alike.
 */
export function conversationRow(
  c: Pick<ConversationInsert, 'system_type' | 'state'> & Partial<ConversationInsert>,
): ConversationInsert {
  return {
    contact_id: null,
    channel_id: null,
    meeting_id: null,
    subject: '',
    logged_date: nowIso(),
    closed_date: null,
    rating: null,
    agent_account_id: null,
    contact_read_date: null,
    last_agent_message_date: null,
    last_contact_message_date: null,
    last_contact_ping_date: null,
    cancel_reason: null,
    live_since: null,
    limit_ends_at: null,
    ...c,
  };
}

/** A new message's row; `afterClosed`: its conversation had ended before it came (SPEC §3). */
export function messageRow(
  m: NewMessage,
  afterClosed: boolean,
): Insertable<Database['conversation_messages']> {
  return {
    conversation_id: m.conversationId,
    author_kind: m.authorKind,
    contact_id: m.contactId ?? null,
    agent_account_id: m.agentAccountId ?? null,
    author_name: m.authorName ?? null,
    message: m.message,
    logged_date: m.loggedDate ?? nowIso(),
    created_after_closed: afterClosed ? 1 : 0,
  };
}

/** What a new message stamps on its conversation (SPEC §3 lastAgentMessageDate, lastContactMessageDate). */
function stampOf(kind: MessageAuthorKind, logged: string) {
  const field = AUTHOR_KINDS[kind].stamps;
  switch (field) {
    case null:
      return null;
    case 'lastAgentMessageDate':
      return { last_agent_message_date: logged };
    case 'lastContactMessageDate':
      return { last_contact_message_date: logged };
    default:
      return unreachable(field);
  }
}

/**
 * A staff member's message (a counsellor's answer, a leader's word in the group chat), under the
 * name the staff member goes by; stored and announced as addMessage does.
 */
export async function addStaffMessage(
  ctx: AppContext,
  staff: { accountId: number; contactId: number },
  conversationId: number,
  content: string,
  record?: RecordKey,
): Promise<ConversationMessageWire> {
  const { name } = await ctx.db
    .selectFrom('contacts')
    .select('name')
    .where('id', '=', staff.contactId)
    .executeTakeFirstOrThrow();
  return addMessage(
    ctx,
    {
      conversationId,
      authorKind: 'agent',
      message: content,
      agentAccountId: staff.accountId,
      authorName: name,
    },
    record,
  );
}

/**
 * Stores a message, stamps the conversation and tells its subscribers (SPEC §7
 * ConversationMessageCreated). Whether the conversation itself changed for anyone else (the queue,
 * its owner) is the caller's to announce with conversationChanged. The message, its conversation's
 * stamp and the request's idempotency key (`record`) are stored together.
 */
export async function addMessage(
  ctx: AppContext,
  m: NewMessage,
  record?: RecordKey,
): Promise<ConversationMessageWire> {
  // A create with a key stores the message and the key in one transaction; a message no request
  // asked for (a system notice) needs none.
  const message = record
    ? await createOnce(ctx.db, record, (trx) => insertMessage(trx, m))
    : await insertMessage(ctx.db, m);
  const event: MessageCreatedEventData = { conversationId: m.conversationId, messageId: message.id, message };
  await ctx.hub.publishToEntity(
    entityKey('Conversation', m.conversationId),
    HUB_EVENTS.messageCreated,
    event,
  );
  return message;
}

/**
 * Stores a message and stamps its conversation, telling nobody: for a write inside a transaction
 * (a conversation opened with its first message), whose subscribers, if any, hear of it after.
 */
export async function insertMessage(db: Db, m: NewMessage): Promise<ConversationMessageWire> {
  const conversation = await db
    .selectFrom('conversations')
    .select('state')
    .where('id', '=', m.conversationId)
    .executeTakeFirstOrThrow();
  const logged = m.loggedDate ?? nowIso();
  const row = await db
    .insertInto('conversation_messages')
    .values(messageRow({ ...m, loggedDate: logged }, isFinalState(conversation.state) && !m.partOfTheEnd))
    .returningAll()
    .executeTakeFirstOrThrow();
  const stamp = stampOf(m.authorKind, logged);
  if (stamp) await db.updateTable('conversations').set(stamp).where('id', '=', m.conversationId).execute();
  return toMessage(row);
}

/**
 * Ends a conversation as Resolved (SPEC §4: ending an active chat resolves it); a final one stays as
 * it is. With `limitPassedAt`, only a chat whose daily limit has passed by then (server/conversations/chat-limit.ts).
 * Answers whether this call ended it.
 */
export async function resolveConversation(
  db: Db,
  conversationId: number,
  { limitPassedAt }: { limitPassedAt?: string } = {},
): Promise<boolean> {
  let update = db
    .updateTable('conversations')
    .set({ state: CONVERSATION_STATE.Resolved, closed_date: nowIso() })
    .where('id', '=', conversationId)
    .where('state', 'not in', [...FINAL_STATES]);
  if (limitPassedAt !== undefined) update = update.where('limit_ends_at', '<=', limitPassedAt);
  const res = await update.executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}
