import { useMemo } from 'react';
import type { MeetingRow } from '../../worker/client/group-support.ts';
import { useOpenGroupChat } from '../data/index.ts';
import { useProfile } from '../data/live-queries.ts';
import { useConversation } from '../data/meeting-and-chat-hooks.ts';
import { olderOf, useChatPages } from '../data/chat-pages.ts';
import { chatEntries } from '../chat-window/chat-messages.ts';
import { HistoricChatView } from './historic-chat-view.tsx';

/**
 * SPEC §2 Historic chat window of a meeting's group chat: read-only, no star or trash. Renders the
 * cached messages from Dexie at once; the worker refreshes them when online.
 */
export function HistoricChatWindow({ meeting, onClose }: { meeting: MeetingRow; onClose: () => void }) {
  const profile = useProfile();
  const conversationId = meeting.conversation?.id ?? null;
  const conversation = useConversation(conversationId);
  const pages = useChatPages(conversationId);
  const { rows } = pages;

  useOpenGroupChat(conversationId);

  const entries = useMemo(() => chatEntries(rows ?? [], profile?.contactId), [rows, profile?.contactId]);

  return (
    <HistoricChatView
      title={meeting.subject}
      entries={rows === undefined ? undefined : entries}
      older={olderOf(pages)}
      date={conversation?.loggedDate ?? meeting.startDate}
      onClose={onClose}
    />
  );
}
