import type { ChatEntry } from '../chat-window/chat-messages.ts';

/**
 * SPEC §2 author labels of one-to-one chats and mail: a counsellor's message is signed with the
 * provider's name followed by 'Kurator' (never the volunteer's own name).
 */
export function counsellorLabel(providerName: string, counsellor: string): string {
  return `${providerName} ${counsellor}`;
}

export function withCounsellorLabels(
  entries: readonly ChatEntry[],
  providerName: string,
  counsellor: string,
): ChatEntry[] {
  const label = counsellorLabel(providerName, counsellor);
  const labelled = entries.map((e) => (e.authorType === 'staff' ? { ...e, authorName: label } : e));
  // Two counsellor messages in a row are now by the same author, whatever their names were.
  return labelled.map((e, i) => {
    const previous = labelled[i - 1];
    return {
      ...e,
      sameAuthorAsPreviousMessage:
        !!previous && previous.authorType === e.authorType && previous.authorName === e.authorName,
    };
  });
}
