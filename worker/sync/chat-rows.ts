import type { ConversationMessageWire } from '../../contract/conversations.ts';
import type { ChatMessageRow } from '../client/group-support.ts';
import type { PortalDb } from '../client/db.ts';

export const serverRow = (m: ConversationMessageWire): ChatMessageRow => ({
  ...m,
  key: String(m.id),
  clientId: null,
  sendStatus: null,
});

/** Same author, text and client time: the server's copy of a message this device wrote. */
type Comparable = Pick<ChatMessageRow, 'authorKind' | 'contactId' | 'message' | 'loggedDate'>;
const sameMessage = (local: Comparable, m: Comparable) =>
  m.authorKind === 'contact' &&
  m.contactId === local.contactId &&
  m.message === local.message &&
  Date.parse(m.loggedDate) === Date.parse(local.loggedDate);

/**
 * Writes a fetched message list. A local row whose message the server already has (the refetch can
 * arrive before the outbox records the POST's answer) is replaced by it, so nothing shows twice;
 * own sent rows keep their clientId so the UI's list keys stay stable.
 */
export async function reconcileMessages(
  db: PortalDb,
  conversationId: number,
  messages: ConversationMessageWire[],
): Promise<void> {
  await db.transaction('rw', [db.chatMessages, db.outbox], async () => {
    const existing = await db.chatMessages.where('conversation').equals(conversationId).toArray();
    const locals = existing.filter((r) => r.id === null && r.sendStatus !== 'failed');
    const previous = new Map(existing.filter((r) => r.id !== null).map((r) => [r.key, r]));
    const rows = messages.map((m) => {
      const before = previous.get(String(m.id));
      const row = serverRow(m);
      return before?.clientId ? { ...row, clientId: before.clientId, sendStatus: before.sendStatus } : row;
    });
    const claimed = new Set<string>();
    for (const local of locals) {
      const sent = local.clientId ? await db.outbox.get(local.clientId) : undefined;
      const responseId = (sent?.response as { id?: unknown } | undefined)?.id;
      const match = rows.find(
        (r) => !claimed.has(r.key) && !r.clientId && (r.id === responseId || sameMessage(local, r)),
      );
      if (!match) continue;
      claimed.add(match.key);
      Object.assign(match, { clientId: local.clientId, sendStatus: 'sent' });
      await db.chatMessages.delete(local.key);
    }
    const keep = new Set(rows.map((r) => r.key));
    const gone = existing.filter((r) => r.id !== null && !keep.has(r.key)).map((r) => r.key);
    await db.chatMessages.bulkDelete(gone);
    await db.chatMessages.bulkPut(rows);
  });
}
