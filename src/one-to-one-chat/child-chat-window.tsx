import { EmergencyLink } from '../ui-kit/emergency-link.tsx';
import { ChatTimeLeft } from '../../client-kit/chat-limit/time-left.tsx';
import { useMemo, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import type { ConversationRow } from '../../worker/client/group-support.ts';
import type { ChatStateRow } from '../../worker/client/one-to-one-chat.ts';
import { isChatOnly } from '../config/variant.ts';
import { useConfig } from '../config/runtime-config.tsx';
import { useApi } from '../data/index.ts';
import { ConfirmationDialog } from '../dialogs/confirmation-dialog.tsx';
import { Modal } from '../dialogs/modal.tsx';
import { minutesText } from '../chat-window/texts.ts';
import { useTyping } from '../data/meeting-and-chat-hooks.ts';
import { olderOf, useChatPages } from '../data/chat-pages.ts';
import * as s from '../chat-window/chat-window.styles.ts';
import { ChatWindowFrame } from '../chat-window/chat-window-frame.tsx';
import { MessageInput } from '../chat-window/message-input.tsx';
import { MessageList } from '../chat-window/message-list.tsx';
import { TypingIndicator } from '../chat-window/typing-indicator.tsx';
import { actions } from '../dialogs/modal.styles.ts';
import { primaryButton, secondaryButton } from '../styles/controls.ts';
import { chatWindowMinimized, chatWindowOpen, chatWindowWanted, showChatWindow } from './chat-store.ts';
import { botTexts, childEntries, minimizedLabel, phaseOf, placeholderOf } from './child-chat-state.ts';
import { CHILD_CHAT_TEXTS as T } from './texts.ts';
import { useBotMessages } from './use-bot-messages.ts';
import type { ChildChatRows } from './use-child-chat.ts';
import { NoticeQuestion } from './notice-question.tsx';
import { BreatheWithMe } from './breathe-with-me.tsx';
import { EstimatedWaitNote } from './estimated-wait.tsx';
import { CalmTimesLink, CalmTimesModal } from './calm-times.tsx';
import { ChatFeedback } from './chat-feedback.tsx';
import {
  useChatActions,
  useLiveConversation,
  useLiveMinutes,
  usePhaseChanges,
  usePreSubmit,
  useUnseenWhileMinimized,
} from './use-child-chat-window.ts';

/**
 * The child's chat, app-wide: the full-screen window, or its minimised bar while the chat lasts. Its
 * data comes from ChildChatHost (child-chat-host.tsx), read while this code loads; its state and
 * actions from the hooks of use-child-chat-window.ts: this only draws.
 */
export function ChildChat({
  chat,
  myContactId,
}: {
  chat: ChildChatRows | undefined;
  myContactId: number | undefined;
}) {
  useSignals();
  if (!chat?.state || !chat.conversation) return null;
  return <ChildChatWindow state={chat.state} conversation={chat.conversation} myContactId={myContactId} />;
}

function ChildChatWindow({
  state,
  conversation: stored,
  myContactId,
}: {
  state: ChatStateRow;
  conversation: ConversationRow;
  myContactId: number | undefined;
}) {
  useSignals();
  const api = useApi();
  const config = useConfig();
  const typingRows = useTyping(stored.id) ?? [];
  const open = chatWindowOpen.value;
  const minimized = !open || chatWindowMinimized.value;
  // The messages are read only while the window is open (the minimised bar needs none of them).
  const pages = useChatPages(stored.id, !minimized);
  const { rows } = pages;
  const conversation = useLiveConversation(stored, rows);
  const phase = phaseOf(conversation);
  const counsellorName = `${config.providerName} ${T.counsellor}`;
  const { closedModal, closeClosedModal } = usePhaseChanges(api, conversation, state);
  const [calmTimesOpen, setCalmTimesOpen] = useState(false);
  const unseen = useUnseenWhileMinimized(minimized, conversation, phase);
  const minutes = useLiveMinutes(conversation, state);
  const preSubmit = usePreSubmit(conversation, state, phase);
  const { confirm, ask, busy, leave, end, close, endedModal, closeEndedModal } = useChatActions(
    api,
    conversation.id,
  );

  const bots = useMemo(() => botTexts(config.providerName, isChatOnly(config)), [config]);
  const { shown, done } = useBotMessages(bots, phase === 'queue');
  const entries = useMemo(
    () =>
      childEntries({
        rows: rows ?? [],
        myContactId,
        conversation,
        state,
        providerName: config.providerName,
        botsShown: shown,
        botsDone: done,
        allRead: !pages.hasOlder,
      }),
    [rows, myContactId, conversation, state, config.providerName, shown, done, pages.hasOlder],
  );
  const typing = typingRows.map((r) => (r.contactId === -1 ? { ...r, contactName: counsellorName } : r));
  const barLabel = minimizedLabel(phase, unseen, conversation.queuePosition);
  const { preSubmitting } = preSubmit;

  return (
    <ChatWindowFrame
      minimized={minimized}
      onMinimize={(minimize) => (minimize ? (chatWindowMinimized.value = true) : showChatWindow())}
      onRestoreSoon={chatWindowWanted}
      barLabel={barLabel}
      titleId="child-chat-title"
      title={T.title}
      status={
        <>
          {phase === 'queue' && (
            <>
              <span>{T.waiting}</span>
              {conversation.queuePosition ? (
                <span className={s.statusLine}> {T.queuePlace(conversation.queuePosition)}</span>
              ) : null}
              <EstimatedWaitNote wait={conversation.estimatedWait} />
              <CalmTimesLink onOpen={() => setCalmTimesOpen(true)} />
            </>
          )}
          {phase === 'active' && `${T.live} ${minutesText(minutes)}`}
          {phase === 'ended' && T.ended}
        </>
      }
      note={
        phase === 'active' ? (
          <ChatTimeLeft limitEndsAt={conversation.limitEndsAt} text={T.timeLeft} className={s.timeLeft} />
        ) : null
      }
      minimizeLabel={T.minimize}
      actions={
        <>
          {phase === 'queue' && (
            <button
              type="button"
              className={`${secondaryButton} ${s.headerButton}`}
              disabled={busy !== null}
              onClick={() => ask('leave')}
            >
              {busy === 'leaving' ? T.leavingQueue : T.leaveQueue}
            </button>
          )}
          {phase === 'active' && (
            <button
              type="button"
              className={`${secondaryButton} ${s.headerButton}`}
              disabled={busy !== null}
              onClick={() => ask('end')}
            >
              {busy === 'ending' ? T.ending : T.end}
            </button>
          )}
          {phase === 'ended' && (
            <button
              type="button"
              className={`${primaryButton} ${s.headerButton}`}
              onClick={() => void close()}
            >
              {T.close}
            </button>
          )}
        </>
      }
      body={
        <>
          {phase === 'queue' && <EmergencyLink />}
          {/* Under the queue status, inside the window; gone the moment the chat leaves the queue. */}
          {phase === 'queue' && <BreatheWithMe />}
          <MessageList entries={entries} older={olderOf(pages)} />
          <TypingIndicator rows={typing} myContactId={myContactId} />
          {phase === 'queue' && <NoticeQuestion />}
          {/* Asked only of a chat a counsellor was in: a queue left has nothing to tell of. */}
          {phase === 'ended' && conversation.liveSince !== null && (
            <ChatFeedback conversationId={conversation.id} state={state} />
          )}
          {phase === 'queue' && preSubmit.allowed && done && preSubmit.choice === null && (
            <div className={s.choices} role="group" aria-labelledby="pre-submit-question">
              <p id="pre-submit-question">{T.preSubmitQuestion}</p>
              <button type="button" className={primaryButton} onClick={() => preSubmit.choose('yes')}>
                {T.preSubmitYes}
              </button>
              <button type="button" className={secondaryButton} onClick={() => preSubmit.choose('no')}>
                {T.preSubmitNo}
              </button>
            </div>
          )}
        </>
      }
    >
      <MessageInput
        enabled={preSubmit.inputEnabled}
        placeholder={placeholderOf(phase, preSubmitting)}
        sendWithEnterOption={false}
        {...(preSubmitting ? { prompt: T.preSubmitPrompt } : {})}
        onTyping={() => {
          if (phase === 'active') api.sendTyping(conversation.id).catch(() => undefined);
        }}
        onSend={async (text) => {
          if (phase === 'active') await api.sendChatMessage(conversation.id, text);
          else if (preSubmitting) await api.preSubmit(conversation.id, text);
        }}
      />
      <ConfirmationDialog
        open={confirm !== null}
        text={confirm === 'end' ? T.endConfirm : T.leaveConfirm}
        yes={confirm === 'end' ? T.endYes : T.leaveYes}
        no={T.cancel}
        onClose={() => ask(null)}
        onResult={(yes) => {
          if (!yes) return;
          if (phase === 'active') void end();
          else if (phase === 'queue') void leave();
        }}
      />
      <CalmTimesModal
        open={calmTimesOpen && phase === 'queue'}
        onClose={() => setCalmTimesOpen(false)}
        channel={conversation.channel}
      />
      <Modal open={endedModal} onClose={closeEndedModal} title={T.endedModalTitle} titleSize="small">
        <p>{T.endedModalText}</p>
        <div className={actions}>
          <button type="button" className={primaryButton} onClick={closeEndedModal}>
            {T.closedModalOk}
          </button>
        </div>
      </Modal>
      <Modal open={closedModal} onClose={closeClosedModal} title={T.closedModalTitle} titleSize="small">
        <p>{T.closedModalText}</p>
        <div className={actions}>
          <button type="button" className={primaryButton} onClick={closeClosedModal}>
            {T.closedModalOk}
          </button>
        </div>
      </Modal>
    </ChatWindowFrame>
  );
}
