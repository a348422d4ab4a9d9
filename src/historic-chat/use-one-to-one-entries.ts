import { useMemo } from 'react';
import { useConfig } from '../config/runtime-config.tsx';
import { useProfile } from '../data/index.ts';
import { chatEntries, type ChatEntry } from '../chat-window/chat-messages.ts';
import { useChatMessages } from '../group-support/hooks.ts';
import { withCounsellorLabels } from './counsellor-label.ts';

/**
 * The messages of a one-to-one conversation (a mail thread or a historic chat) as the list shows
 * them: the child's own on the right, the counsellor's signed '{provider} {counsellor}' (SPEC §2).
 * Undefined while Dexie is still being read.
 */
export function useOneToOneEntries(conversationId: number, counsellor: string): ChatEntry[] | undefined {
  const config = useConfig();
  const profile = useProfile();
  const rows = useChatMessages(conversationId);
  return useMemo(
    () =>
      rows && withCounsellorLabels(chatEntries(rows, profile?.contactId), config.providerName, counsellor),
    [rows, profile?.contactId, config.providerName, counsellor],
  );
}
