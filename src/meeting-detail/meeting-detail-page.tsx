import { useEffect, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { outcomeOf, type LoadOutcome } from '../../worker/client/result.ts';
import {
  chatClosedByUser,
  chatMinimized,
  closeChat,
  openChat,
  openChatMeeting,
} from '../chat-window/chat-window-store.ts';
import { ChatWindow } from '../chat-window/chat-window.tsx';
import { useApi } from '../data/index.ts';
import { row } from '../meeting-ui/meeting.styles.ts';
import { useConversation, useMeeting } from '../data/meeting-and-chat-hooks.ts';
import {
  hasHistoricConversation,
  opensChatAutomatically,
  showOpenChat,
  showPrivateMessage,
} from '../meeting-ui/meeting-detail-state.ts';
import { HistoricChatWindow } from '../historic-chat/historic-chat-window.tsx';
import { MeetingTasks } from '../meeting-tasks/meeting-tasks.tsx';
import { PageLayout } from '../header/page-layout.tsx';
import { Spinner } from '../../client-kit/spinner/spinner.tsx';
import { primaryButton, secondaryButton } from '../styles/controls.ts';
import { AccessDeniedModal } from './access-denied-modal.tsx';
import { MeetingSummary } from './meeting-summary.tsx';
import { Participants } from './participants.tsx';
import { PrivateMessageForm } from './private-message-form.tsx';
import { MEETING_DETAIL_TEXTS as T } from './texts.ts';

/** Route '/tillfalle/:id' (SPEC §2 Meeting detail); renders from Dexie while loadMeeting refreshes. */
export function MeetingDetailPage({ id }: { id: string }) {
  useSignals();
  const api = useApi();
  const meetingId = Number(id);
  const valid = Number.isInteger(meetingId) && meetingId > 0;
  const meeting = useMeeting(valid ? meetingId : -1);
  const conversationId = meeting?.conversation?.id ?? null;
  const conversation = useConversation(conversationId);
  const [result, setResult] = useState<LoadOutcome | 'loading'>('loading');
  const [history, setHistory] = useState(false);

  useEffect(() => {
    if (!valid) return;
    let current = true;
    setResult('loading');
    api
      .loadMeeting(meetingId)
      .then((r) => current && setResult(outcomeOf(r)))
      .catch(() => current && setResult('failed'));
    return () => {
      current = false;
    };
  }, [api, meetingId, valid]);

  const chatOpen = openChatMeeting.value === meetingId;
  const autoOpen =
    !!meeting && opensChatAutomatically(meeting, conversation) && !chatClosedByUser.value.has(meetingId);
  useEffect(() => {
    if (autoOpen && openChatMeeting.peek() !== meetingId) openChat(meetingId);
  }, [autoOpen, meetingId]);

  useEffect(
    () => () => {
      if (openChatMeeting.peek() === meetingId) openChatMeeting.value = null;
    },
    [meetingId],
  );

  if (result === 'forbidden') {
    return (
      <PageLayout title={T.heading} backButton>
        <AccessDeniedModal />
      </PageLayout>
    );
  }

  if (!meeting) {
    const notFound = !valid || result === 'not_found' || (result !== 'loading' && meeting === null);
    return (
      <PageLayout title={T.heading} backButton>
        {notFound ? (
          <>
            <h1>{T.heading}</h1>
            <p>{T.notFound}</p>
            {result === 'not_found' && <p role="alert">{T.notFoundError}</p>}
          </>
        ) : (
          <Spinner label={T.loading} />
        )}
      </PageLayout>
    );
  }

  return (
    <PageLayout title={T.heading} backButton>
      <MeetingSummary meeting={meeting} conversation={conversation}>
        <div className={row}>
          {hasHistoricConversation(conversation) && (
            <button type="button" className={secondaryButton} onClick={() => setHistory(true)}>
              {T.showHistory}
            </button>
          )}
          {showOpenChat(chatOpen, meeting, conversation) && (
            <button type="button" className={primaryButton} onClick={() => openChat(meetingId)}>
              {T.openChat}
            </button>
          )}
        </div>
        <MeetingTasks meetingId={meetingId} />
        {showPrivateMessage(meeting) && <PrivateMessageForm meetingId={meetingId} />}
        <Participants conversationId={conversationId} />
      </MeetingSummary>
      {chatOpen && (
        <ChatWindow
          meeting={meeting}
          minimized={chatMinimized.value}
          onMinimize={(value) => (chatMinimized.value = value)}
          onLeave={() => closeChat(meetingId)}
        />
      )}
      {history && <HistoricChatWindow meeting={meeting} onClose={() => setHistory(false)} />}
    </PageLayout>
  );
}
