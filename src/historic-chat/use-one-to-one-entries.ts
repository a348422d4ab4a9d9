import { useMemo } from 'react';
import { useConfig } from '../config/runtime-config.tsx';
import { useProfile } from '../data/live-queries.ts';
import { chatEntries, type ChatEntry } from '../chat-window/chat-messages.ts';
import { olderOf, useChatPages } from '../data/chat-pages.ts';
import { withCounsellorLabels } from './counsellor-label.ts';

/**
 * The messages of a one-to-one conversation (a mail thread or a historic chat) as the list shows
 * them: the child's own on the right as 'Du', as in the live chat (SPEC §2's "or me": the child's own
 * words are theirs wherever the child reads them; 'Tjej, 14 år' is what the counsellor sees), the
 * counsellor's signed '{provider} {counsellor}' (SPEC §2).
 * `entries` is undefined while Dexie is still being read; `older` reads the rows before them.
 */
export function useOneToOneEntries(
  conversationId: number,
  counsellor: string,
): { entries: ChatEntry[] | undefined; older: ReturnType<typeof olderOf> } {
  const config = useConfig();
  const profile = useProfile();
  const pages = useChatPages(conversationId);
  const { rows } = pages;
  const entries = useMemo(() => {
    if (!rows) return undefined;
    return withCounsellorLabels(chatEntries(rows, profile?.contactId), config.providerName, counsellor);
  }, [rows, profile?.contactId, config.providerName, counsellor]);
  return { entries, older: olderOf(pages) };
}
