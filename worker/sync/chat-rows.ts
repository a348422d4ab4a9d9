import type { ConversationMessageWire } from '../../contract/conversations.ts';
import { isContactAuthor } from '../../contract/author-kinds.ts';
import type { ChatMessageRow } from '../base/group-support.ts';
import type { PortalDb } from '../base/db.ts';

/** The key prefix of a row this device wrote and the server has not accepted yet (`local:{clientId}`). */
export const LOCAL_KEY_PREFIX = 'local:';

/**
 * The rows of `conversationId` this device wrote that the server has not accepted yet: read by their
 * keys' prefix, so no other row of the chat is opened (a long chat has thousands; these are few).
 */
export async function localRows(db: PortalDb, conversationId: number): Promise<ChatMessageRow[]> {
  const rows = await db.chatMessages.where('key').startsWith(LOCAL_KEY_PREFIX).toArray();
  return rows.filter((r) => r.conversation === conversationId);
}

export const serverRow = (m: ConversationMessageWire): ChatMessageRow => ({
  ...m,
  key: String(m.id),
  clientId: null,
  sendStatus: null,
});

/**
 * Same author and text: the server's copy of a message this device wrote. The server stamps its own
 * time, so the times differ; only a message new to this device and a local row the outbox has already
 * tried to send are compared.
 */
type Comparable = Pick<ChatMessageRow, 'authorKind' | 'contactId' | 'message'>;
const sameMessage = (local: Comparable, m: Comparable) =>
  isContactAuthor(m.authorKind) && m.contactId === local.contactId && m.message === local.message;

/** A stored row equal to what would be written (field by field; nested values by their JSON). */
function sameRow(stored: ChatMessageRow | undefined, row: ChatMessageRow): boolean {
  if (!stored) return false;
  const a = stored as unknown as Record<string, unknown>;
  const b = row as unknown as Record<string, unknown>;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    const x = a[key];
    const y = b[key];
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    if (JSON.stringify(x) !== JSON.stringify(y)) return false;
  }
  return true;
}

/**
 * Writes a fetched message list. A local row whose message the server already has (the refetch can
 * arrive before the outbox records the POST's answer) is replaced by it, so nothing shows twice and
 * it takes the server's time (and so its place in the chat); own sent rows keep their clientId so the
 * UI's list keys stay stable. A whole list also removes the stored messages it no longer has; a list
 * asked with the catch-up cursor (`partial`) holds only the newest, so it is merged by id instead.
 *
 * What it reads of the chat: the stored rows of the fetched keys (to write only what changed), the
 * conversation's local rows (what a fetched row may replace) and, for a whole list, the keys alone of
 * the rest (to find what the server no longer has): a catch-up of a few messages into a chat of
 * thousands opens those few.
 */
export async function reconcileMessages(
  db: PortalDb,
  conversationId: number,
  messages: ConversationMessageWire[],
  { partial = false }: { partial?: boolean } = {},
): Promise<void> {
  await db.transaction('rw', [db.chatMessages, db.outbox], async () => {
    const fetched = messages.map(serverRow);
    const stored = await db.chatMessages.bulkGet(fetched.map((r) => r.key));
    const previous = new Map<string, ChatMessageRow>();
    for (const row of stored) if (row) previous.set(row.key, row);
    const locals = (await localRows(db, conversationId)).filter((r) => r.sendStatus !== 'failed');
    const rows = fetched.map((row) => {
      const before = previous.get(row.key);
      return before?.clientId ? { ...row, clientId: before.clientId, sendStatus: before.sendStatus } : row;
    });
    const claimed = new Set<string>();
    for (const local of locals) {
      const sent = local.clientId ? await db.outbox.get(local.clientId) : undefined;
      const responseId = (sent?.response as { id?: unknown } | undefined)?.id;
      const tried = !!sent && sent.attempts > 0;
      const match = rows.find(
        (r) =>
          !claimed.has(r.key) &&
          !r.clientId &&
          (r.id === responseId || (tried && !previous.has(r.key) && sameMessage(local, r))),
      );
      if (!match) continue;
      claimed.add(match.key);
      Object.assign(match, { clientId: local.clientId, sendStatus: 'sent' });
      await db.chatMessages.delete(local.key);
    }
    if (!partial) {
      const keep = new Set(rows.map((r) => r.key));
      const keys = (await db.chatMessages
        .where('conversation')
        .equals(conversationId)
        .primaryKeys()) as string[];
      await db.chatMessages.bulkDelete(
        keys.filter((key) => !key.startsWith(LOCAL_KEY_PREFIX) && !keep.has(key)),
      );
    }
    // Only what changed is written: an unchanged refetch wakes no live query and renders nothing.
    await db.chatMessages.bulkPut(rows.filter((row) => !sameRow(previous.get(row.key), row)));
  });
}

/**
 * Writes one message a hub event carried (shown without waiting for a fetch). Idempotent:
 * a message already here is refreshed in place; the server's copy of a message this device wrote
 * replaces the local row, as in `reconcileMessages`; nothing else is touched (the fetch that follows
 * reconciles the rest).
 */
export async function applyMessage(db: PortalDb, message: ConversationMessageWire): Promise<void> {
  const conversationId = message.conversation;
  await db.transaction('rw', [db.chatMessages, db.outbox], async () => {
    const row = serverRow(message);
    const before = await db.chatMessages.get(row.key);
    if (before) {
      const next = before.clientId
        ? { ...row, clientId: before.clientId, sendStatus: before.sendStatus }
        : row;
      if (!sameRow(before, next)) await db.chatMessages.put(next);
      return;
    }
    const locals = (await localRows(db, conversationId)).filter((r) => r.sendStatus !== 'failed');
    for (const local of locals) {
      const sent = local.clientId ? await db.outbox.get(local.clientId) : undefined;
      const responseId = (sent?.response as { id?: unknown } | undefined)?.id;
      const tried = !!sent && sent.attempts > 0;
      if (row.id === responseId || (tried && sameMessage(local, row))) {
        await db.chatMessages.delete(local.key);
        await db.chatMessages.put({ ...row, clientId: local.clientId, sendStatus: 'sent' });
        return;
      }
    }
    await db.chatMessages.put(row);
  });
}

/** The message of a `ConversationMessageCreated` event, when it carries a whole one. */
export function messageOfEvent(data: unknown): ConversationMessageWire | null {
  const message = (data as { message?: unknown } | null)?.message as
    Partial<ConversationMessageWire> | undefined;
  if (!message || typeof message !== 'object') return null;
  const ok =
    typeof message.id === 'number' &&
    typeof message.conversation === 'number' &&
    typeof message.message === 'string' &&
    typeof message.loggedDate === 'string' &&
    typeof message.authorKind === 'string';
  return ok ? (message as ConversationMessageWire) : null;
}
