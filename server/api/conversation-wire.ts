import type { Selectable } from 'kysely';
import type {
  Conversation,
  ConversationMessageWire,
  ConversationState,
  SystemType,
} from '../../contract/conversations.ts';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { queuePosition } from './queue.ts';

/** Conversations and their messages as the wire carries them (SPEC §7): rows in, contract types out. */

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
    liveSince: c.live_since,
    limitEndsAt: c.limit_ends_at,
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
