import type { Selectable } from 'kysely';
import type {
  Conversation,
  ConversationMessageWire,
  ConversationState,
  SystemType,
} from '../../contract/conversations.ts';
import { authorNameFields } from '../../contract/author-kinds.ts';
import { MESSAGES_SINCE_OVERLAP_MS } from '../../contract/limits.ts';
import { inChunks, type Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { queuePositions } from './queue.ts';
import { estimateWait, waitFigures } from './wait-estimate.ts';

/** Conversations and their messages as the wire carries them (SPEC §7): rows in, contract types out. */

type ConversationRow = Selectable<Database['conversations']>;
type MessageRow = Selectable<Database['conversation_messages']>;

/**
 * Conversations as the wire carries them, in a fixed number of statements however many there are
 * (one message count per conversation made a long list's time).
 */
export async function toConversations(db: Db, rows: ConversationRow[]): Promise<Conversation[]> {
  if (rows.length === 0) return [];
  const counts = new Map<number, number>();
  for (const ids of inChunks(rows.map((r) => r.id))) {
    const found = await db
      .selectFrom('conversation_messages')
      .select(['conversation_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('conversation_id', 'in', ids)
      .groupBy('conversation_id')
      .execute();
    for (const r of found) counts.set(r.conversation_id, Number(r.n));
  }
  const positions = await queuePositions(db, rows);
  const figures = await waitFigures(
    db,
    rows.filter((r) => positions.has(r.id)).map((r) => r.channel_id),
  );
  const waitAt = (c: ConversationRow) => {
    const place = positions.get(c.id);
    return place === undefined ? null : estimateWait(figures.get(c.channel_id) ?? null, place);
  };
  return rows.map((c) => ({
    id: c.id,
    subject: c.subject,
    state: c.state as ConversationState,
    loggedDate: c.logged_date,
    closedDate: c.closed_date,
    readDate: c.contact_read_date,
    rating: c.rating,
    systemType: c.system_type as SystemType,
    messageCount: counts.get(c.id) ?? 0,
    lastAgentMessageDate: c.last_agent_message_date,
    lastContactMessageDate: c.last_contact_message_date,
    // A queued chat says where it stands, so a refetch never blanks the child's 'Köplats'.
    queuePosition: positions.get(c.id) ?? null,
    estimatedWait: waitAt(c),
    channel: c.channel_id,
    meetingId: c.meeting_id,
    liveSince: c.live_since,
    limitEndsAt: c.limit_ends_at,
  }));
}

export async function toConversation(db: Db, c: ConversationRow): Promise<Conversation> {
  return (await toConversations(db, [c]))[0]!;
}

export function toMessage(m: MessageRow): ConversationMessageWire {
  const names = authorNameFields(m.author_kind, m.author_name);
  return {
    id: m.id,
    conversation: m.conversation_id,
    message: m.message,
    loggedDate: m.logged_date,
    authorKind: m.author_kind,
    contactId: m.contact_id,
    contactName: names.contactName,
    agentId: m.agent_account_id,
    agentName: names.agentName,
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

/**
 * A message list with the catch-up cursor `since` (contract/schemas/conversations.ts): the messages
 * logged from MESSAGES_SINCE_OVERLAP_MS before the cursor's message on, without the cursor's own,
 * through the (conversation_id, logged_date) index. An id is handed out before its write commits,
 * so a message may become visible after one with a higher id: the overlap fetches it again rather
 * than skip it, and the client merges by id (docs/decisions.md "Catch-up by cursor"). A cursor that
 * is no message of this conversation answers the whole list: more than asked, never less.
 */
export async function listMessagesSince(db: Db, conversationId: number, since: number | undefined) {
  if (since === undefined) return listMessages(db, conversationId);
  const cursor = await db
    .selectFrom('conversation_messages')
    .select('logged_date')
    .where('id', '=', since)
    .where('conversation_id', '=', conversationId)
    .executeTakeFirst();
  const cursorTime = cursor ? Date.parse(cursor.logged_date) : Number.NaN;
  if (Number.isNaN(cursorTime)) return listMessages(db, conversationId);
  const rows = await db
    .selectFrom('conversation_messages')
    .selectAll()
    .where('conversation_id', '=', conversationId)
    .where('logged_date', '>=', new Date(cursorTime - MESSAGES_SINCE_OVERLAP_MS).toISOString())
    .where('id', '!=', since)
    .orderBy('logged_date', 'asc')
    .orderBy('id', 'asc')
    .execute();
  return rows.map(toMessage);
}
