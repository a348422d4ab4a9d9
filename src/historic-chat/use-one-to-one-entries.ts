import { useMemo } from 'react';
import { useConfig } from '../config/runtime-config.tsx';
import { useProfile } from '../data/live-queries.ts';
import { chatEntries, type ChatEntry } from '../chat-window/chat-messages.ts';
import { useChatRows } from '../data/meeting-and-chat-hooks.ts';
import { withCounsellorLabels } from './counsellor-label.ts';
import { ageFromBirthYear, userAuthorLabel } from '../../contract/profile.ts';

/**
 * The messages of a one-to-one conversation (a mail thread or a historic chat) as the list shows
 * them: the child's own on the right with the SPEC §3 author label ('Tjej, 14 år', as the counsellor saw
 * them), the counsellor's signed '{provider} {counsellor}' (SPEC §2).
 * Undefined while Dexie is still being read.
 */
export function useOneToOneEntries(conversationId: number, counsellor: string): ChatEntry[] | undefined {
  const config = useConfig();
  const profile = useProfile();
  const { rows } = useChatRows(conversationId);
  const ids = config.propertyIds;
  const gender = profile?.properties[ids.gender];
  const birthYear = profile?.properties[ids.birthYear];
  return useMemo(() => {
    if (!rows) return undefined;
    const me = userAuthorLabel(gender, ageFromBirthYear(birthYear));
    const entries = chatEntries(rows, profile?.contactId).map((e) =>
      e.authorType === 'me' ? { ...e, label: me } : e,
    );
    return withCounsellorLabels(entries, config.providerName, counsellor);
  }, [rows, profile?.contactId, gender, birthYear, config.providerName, counsellor]);
}
