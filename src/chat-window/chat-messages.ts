import type { MessageAuthorKind } from '../../contract/conversations.ts';
import { authorNameOf, authorParty, isContactAuthor, type AuthorParty } from '../../contract/author-kinds.ts';
import type { ChatMessageRow } from '../../worker/client/group-support.ts';
import { CHAT_TEXTS } from './texts.ts';

/**
 * Whose bubble a message is: one's own, another participant's, staff's (a counsellor or a group
 * leader), a notice's; 'bot' marks the queue's messages the child app adds itself.
 */
export type AuthorType = 'me' | 'otherContact' | 'staff' | 'info' | 'bot';

export interface ChatEntry {
  key: string;
  content: string;
  loggedDate: string;
  authorType: AuthorType;
  authorName: string;
  sendStatus: ChatMessageRow['sendStatus'];
  /** One's own message still in the outbox: what 'Försök igen' and 'Ta bort' act on. */
  clientId?: string;
  /** While 'waiting': the server's Swedish text saying why. */
  sendNotice?: string;
  createdAfterClosedConversation: boolean;
  sameAuthorAsPreviousMessage: boolean;
  /** Overrides the author label (SPEC §2: 'Dina tankar', 'Kömeddelande', '{provider} Kurator'). */
  label?: string;
}

/** The bubble of each side of a conversation (contract/author-kinds.ts AuthorParty). */
const AUTHOR_TYPE_OF_PARTY = {
  contact: 'otherContact',
  staff: 'staff',
  notice: 'info',
} as const satisfies Record<AuthorParty, AuthorType>;

/** Whose bubble a message is, by its author kind (one's own messages are told apart by the caller). */
export function authorTypeOf(kind: MessageAuthorKind): Exclude<AuthorType, 'me' | 'bot'> {
  return AUTHOR_TYPE_OF_PARTY[authorParty(kind)];
}

/**
 * The order of a chat: what the server has accepted by the server's loggedDate (id on a tie), then
 * what still waits in the outbox (sending, waiting, failed) in the order it was written, whatever
 * the device's clock says compared with the server's.
 */
export function compareChatRows(a: ChatMessageRow, b: ChatMessageRow): number {
  if ((a.id === null) !== (b.id === null)) return a.id === null ? 1 : -1;
  const byTime = Date.parse(a.loggedDate) - Date.parse(b.loggedDate);
  if (byTime !== 0 && !Number.isNaN(byTime)) return byTime;
  return a.id !== null && b.id !== null ? a.id - b.id : 0;
}

/** Chat rows in chat order (compareChatRows), with author names (the one its kind shows; none on one's own). */
export function chatEntries(rows: readonly ChatMessageRow[], myContactId: number | undefined): ChatEntry[] {
  const sorted = [...rows].sort(compareChatRows);
  const entries: ChatEntry[] = [];
  for (const row of sorted) {
    const mine = row.clientId !== null || (isContactAuthor(row.authorKind) && row.contactId === myContactId);
    const authorType: AuthorType = mine ? 'me' : authorTypeOf(row.authorKind);
    const authorName = mine ? '' : (authorNameOf(row) ?? '');
    const previous = entries[entries.length - 1];
    entries.push({
      key: row.key,
      content: row.message,
      loggedDate: row.loggedDate,
      authorType,
      authorName,
      sendStatus: row.sendStatus,
      ...(row.id === null && row.clientId ? { clientId: row.clientId } : {}),
      ...(row.sendNotice ? { sendNotice: row.sendNotice } : {}),
      createdAfterClosedConversation: row.createdAfterClosedConversation,
      sameAuthorAsPreviousMessage:
        !!previous && previous.authorType === authorType && previous.authorName === authorName,
    });
  }
  return entries;
}

/**
 * The send status under one's own message (SPEC §2 tooltips 'Skickar...', 'Skickat', 'Gick inte att
 * skicka meddelandet'). A message the server asked to wait with is not a failure: it is sent on its
 * own later, and the server's words (or ours) say so. One whose last attempt got no answer says it
 * waits for the network ('Väntar på nätet', ours), so 'Skickar...' means an attempt is under way.
 */
export function sendStatusText(entry: Pick<ChatEntry, 'authorType' | 'sendStatus' | 'sendNotice'>) {
  if (entry.authorType !== 'me') return null;
  if (entry.sendStatus === 'sending') return CHAT_TEXTS.sending;
  if (entry.sendStatus === 'offline') return CHAT_TEXTS.sendOffline;
  if (entry.sendStatus === 'waiting') return entry.sendNotice || CHAT_TEXTS.sendWaiting;
  if (entry.sendStatus === 'failed') return CHAT_TEXTS.sendFailed;
  return CHAT_TEXTS.sent;
}
