import { useMemo } from 'react';
import { useConfig } from '../config/runtime-config.tsx';
import { useProfile } from '../data/live-queries.ts';
import { chatEntries, type ChatEntry } from '../chat-window/chat-messages.ts';
import { olderOf, useChatPages } from '../data/chat-pages.ts';
import { withCounsellorLabels } from './counsellor-label.ts';
import { ageFromBirthYear, userAuthorLabel } from '../../contract/profile.ts';

/**
 * The messages of a one-to-one conversation (a mail thread or a historic chat) as the list shows
 * them: the child's own on the right with the SPEC §3 author label ('Tjej, 14 år', as the counsellor saw
 * them), the counsellor's signed '{provider} {counsellor}' (SPEC §2).
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
  const ids = config.propertyIds;
  const gender = profile?.properties[ids.gender];
  const birthYear = profile?.properties[ids.birthYear];
  const entries = useMemo(() => {
    if (!rows) return undefined;
    const me = userAuthorLabel(gender, ageFromBirthYear(birthYear));
    const entries = chatEntries(rows, profile?.contactId).map((e) =>
      e.authorType === 'me' ? { ...e, label: me } : e,
    );
    return withCounsellorLabels(entries, config.providerName, counsellor);
  }, [rows, profile?.contactId, gender, birthYear, config.providerName, counsellor]);
  return { entries, older: olderOf(pages) };
}
