import type { ChatMessageRow } from '../../worker/client/group-support.ts';

/** 'leader' is the staff author (group leader or counsellor); 'bot' marks queue messages. */
export type AuthorType = 'me' | 'otherContact' | 'leader' | 'info' | 'bot';

export interface ChatEntry {
  key: string;
  content: string;
  loggedDate: string;
  authorType: AuthorType;
  authorName: string;
  sendStatus: ChatMessageRow['sendStatus'];
  createdAfterClosedConversation: boolean;
  sameAuthorAsPreviousMessage: boolean;
  /** Overrides the author label (SPEC §2: 'Dina tankar', 'Kömeddelande', '{provider} Kurator'). */
  label?: string;
}

/** Chat rows sorted by loggedDate, with author labels (leader = agentName, others = contactName, me). */
export function chatEntries(rows: readonly ChatMessageRow[], myContactId: number | undefined): ChatEntry[] {
  const sorted = [...rows].sort((a, b) => a.loggedDate.localeCompare(b.loggedDate));
  const entries: ChatEntry[] = [];
  for (const row of sorted) {
    const mine = row.clientId !== null || (row.authorKind === 'contact' && row.contactId === myContactId);
    const authorType: AuthorType = mine
      ? 'me'
      : row.authorKind === 'agent'
        ? 'leader'
        : row.authorKind === 'contact'
          ? 'otherContact'
          : 'info';
    const authorName =
      authorType === 'leader'
        ? (row.agentName ?? '')
        : authorType === 'otherContact'
          ? (row.contactName ?? '')
          : '';
    const previous = entries[entries.length - 1];
    entries.push({
      key: row.key,
      content: row.message,
      loggedDate: row.loggedDate,
      authorType,
      authorName,
      sendStatus: row.sendStatus,
      createdAfterClosedConversation: row.createdAfterClosedConversation,
      sameAuthorAsPreviousMessage:
        !!previous && previous.authorType === authorType && previous.authorName === authorName,
    });
  }
  return entries;
}
