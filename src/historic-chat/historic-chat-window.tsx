import { useEffect, useMemo } from 'react';
import { format } from 'date-fns';
import type { MeetingRow } from '../../worker/client/group-support.ts';
import { useApi, useProfile } from '../data/index.ts';
import { Modal } from '../dialogs/modal.tsx';
import { useChatMessages, useConversation } from '../group-support/hooks.ts';
import { secondaryButton } from '../styles/controls.ts';
import { chatEntries } from '../chat-window/chat-messages.ts';
import { MessageList } from '../chat-window/message-list.tsx';
import { HISTORIC_CHAT_TEXTS } from './texts.ts';
import { footer } from './historic-chat-window.styles.ts';

/**
 * SPEC §2 Historic chat window: read-only. Renders the cached messages from Dexie at once; the
 * worker refreshes them when online.
 */
export function HistoricChatWindow({ meeting, onClose }: { meeting: MeetingRow; onClose: () => void }) {
  const api = useApi();
  const profile = useProfile();
  const conversationId = meeting.conversation?.id ?? null;
  const conversation = useConversation(conversationId);
  const rows = useChatMessages(conversationId);

  useEffect(() => {
    if (conversationId === null) return;
    api.openGroupChat(conversationId).catch((error: unknown) => console.error('openGroupChat', error));
    return () => {
      api.closeGroupChat(conversationId).catch((error: unknown) => console.error('closeGroupChat', error));
    };
  }, [api, conversationId]);

  const entries = useMemo(() => chatEntries(rows ?? [], profile?.contactId), [rows, profile?.contactId]);
  const date = conversation?.loggedDate ?? meeting.startDate;

  return (
    <Modal open onClose={onClose} title={meeting.subject} titleSize="small" colour="chat" extraWide hideClose>
      <button type="button" className={secondaryButton} onClick={onClose}>
        {HISTORIC_CHAT_TEXTS.back}
      </button>
      {rows !== undefined && entries.length === 0 ? (
        <p>{HISTORIC_CHAT_TEXTS.empty}</p>
      ) : (
        <MessageList entries={entries} />
      )}
      <p className={footer}>{HISTORIC_CHAT_TEXTS.footer(format(new Date(date), 'yyyy-MM-dd'))}</p>
    </Modal>
  );
}
