import { EmergencyLink } from '../ui-kit/emergency-link.tsx';
import { ChatTimeLeft } from '../../client-kit/chat-limit/time-left.tsx';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { differenceInMinutes } from 'date-fns';
import type { ConversationRow } from '../../worker/client/group-support.ts';
import type { ChatStateRow } from '../../worker/client/one-to-one-chat.ts';
import { isChatOnly } from '../config/variant.ts';
import { useConfig } from '../config/runtime-config.tsx';
import { useApi } from '../data/index.ts';
import { ConfirmationDialog } from '../dialogs/confirmation-dialog.tsx';
import { Modal } from '../dialogs/modal.tsx';
import { showToast } from '../dialogs/toast-store.ts';
import { minutesText } from '../chat-window/texts.ts';
import { useTyping } from '../data/meeting-and-chat-hooks.ts';
import { olderOf, useChatPages } from '../data/chat-pages.ts';
import { DURATION_UPDATE_MS } from '../../contract/timings.ts';
import { useNow } from '../ui-kit/use-now.ts';
import * as s from '../chat-window/chat-window.styles.ts';
import { ChatWindowFrame } from '../chat-window/chat-window-frame.tsx';
import { MessageInput } from '../chat-window/message-input.tsx';
import { MessageList } from '../chat-window/message-list.tsx';
import { TypingIndicator } from '../chat-window/typing-indicator.tsx';
import { actions } from '../dialogs/modal.styles.ts';
import { primaryButton, secondaryButton } from '../styles/controls.ts';
import {
  chatWindowMinimized,
  chatWindowOpen,
  chatWindowWanted,
  hideChatWindow,
  showChatWindow,
} from './chat-store.ts';
import {
  botTexts,
  canPreSubmit,
  childEntries,
  firstCounsellorMessageDate,
  minimizedLabel,
  phaseOf,
  placeholderOf,
  showsClosedModal,
  withCounsellorMessage,
} from './child-chat-state.ts';
import { CHILD_CHAT_TEXTS as T } from './texts.ts';
import { useBotMessages } from './use-bot-messages.ts';
import type { ChildChatRows } from './use-child-chat.ts';
import { NoticeQuestion } from './notice-question.tsx';
import { BreatheWithMe } from './breathe-with-me.tsx';
import { EstimatedWaitNote } from './estimated-wait.tsx';

/**
 * The child's chat, app-wide: the full-screen window, or its minimised bar while the chat lasts. Its
 * data comes from ChildChatHost (child-chat-host.tsx), read while this code loads.
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
  const now = useNow(DURATION_UPDATE_MS);
  const open = chatWindowOpen.value;
  const minimized = !open || chatWindowMinimized.value;
  // The messages are read only while the window is open (the minimised bar needs none of them).
  const pages = useChatPages(stored.id, !minimized);
  const { rows } = pages;
  // Live with the counsellor's first words, in the render that shows them, and kept so once read:
  // a minimised window reads no message (child-chat-state.ts, withCounsellorMessage).
  const readFirstWords = useMemo(() => (rows ? firstCounsellorMessageDate(rows) : null), [rows]);
  const [keptFirstWords, setKeptFirstWords] = useState<{ id: number; at: string } | null>(null);
  const firstWordsAt = readFirstWords ?? (keptFirstWords?.id === stored.id ? keptFirstWords.at : null);
  useEffect(() => {
    if (readFirstWords !== null) setKeptFirstWords({ id: stored.id, at: readFirstWords });
  }, [stored.id, readFirstWords]);
  const conversation = useMemo(() => withCounsellorMessage(stored, firstWordsAt), [stored, firstWordsAt]);
  const phase = phaseOf(conversation);
  const counsellorName = `${config.providerName} ${T.counsellor}`;

  const [confirm, setConfirm] = useState<'leave' | 'end' | null>(null);
  const [busy, setBusy] = useState<'leaving' | 'ending' | null>(null);
  const [preSubmitChoice, setPreSubmitChoice] = useState<'yes' | 'no' | null>(null);
  const [closedModal, setClosedModal] = useState(false);
  const [endedModal, setEndedModal] = useState(false);
  const [unseen, setUnseen] = useState(false);
  const seenAgentMessage = useRef<string | null | undefined>(undefined);
  const previousPhase = useRef(phase);

  const bots = useMemo(() => botTexts(config.providerName, isChatOnly(config)), [config]);
  const { shown, done } = useBotMessages(bots, phase === 'queue');

  // SPEC §4: the active indicator when waiting turns active; the closed modal when it ends unasked.
  useEffect(() => {
    const before = previousPhase.current;
    previousPhase.current = phase;
    if (before === 'queue' && phase === 'active') void api.markActive(new Date().toISOString());
    if (before !== 'ended' && phase === 'ended' && showsClosedModal(conversation, state))
      setClosedModal(true);
  }, [api, phase, conversation, state]);

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

  // New counsellor messages while minimised: the bar says so, and a system notification if allowed
  // (while the page is hidden the worker has one shown: contract/system-notices.ts). Told from the
  // conversation's last counsellor message (the server's lastAgentMessageDate, which every
  // counsellor message moves), not from its rows, which a minimised window does not read: one already
  // there when the window mounts (after a reload) is not new. An ended chat's bar says it ended, so
  // nothing stays unseen.
  const lastAgentMessage = conversation.lastAgentMessageDate;
  useEffect(() => {
    if (!minimized || seenAgentMessage.current === undefined || phase === 'ended') {
      seenAgentMessage.current = lastAgentMessage;
      setUnseen(false);
      return;
    }
    if (lastAgentMessage !== seenAgentMessage.current) {
      seenAgentMessage.current = lastAgentMessage;
      // The system notice for it comes from the worker, which knows whether any tab shows the chat.
      if (lastAgentMessage !== null) setUnseen(true);
    }
  }, [minimized, lastAgentMessage, phase]);

  const preSubmitAllowed = canPreSubmit(conversation, state);
  const preSubmitting = phase === 'queue' && preSubmitAllowed && preSubmitChoice === 'yes';
  const inputEnabled = phase === 'active' || preSubmitting;
  // 'Chatt live N minuter' counts from the chat's start: the server's `liveSince` (the counsellor's
  // first message, also what the daily limit counts from), so every tab and a reload agree.
  const activeSince =
    conversation.liveSince ??
    state.activeSince ??
    conversation.lastAgentMessageDate ??
    conversation.loggedDate;
  const minutes = Math.max(0, differenceInMinutes(now, new Date(activeSince)));

  const leave = async () => {
    setBusy('leaving');
    try {
      await api.leaveQueue(conversation.id);
    } finally {
      setBusy(null);
    }
  };
  const end = async () => {
    setBusy('ending');
    try {
      // SPEC §8 'Avslutad / chatten är avslutad': the child's own end is confirmed.
      if ((await api.endChat(conversation.id)).ok) setEndedModal(true);
      else showToast(T.endFailed, { kind: 'error' });
    } finally {
      setBusy(null);
    }
  };
  const close = async () => {
    await api.closeChat();
    hideChatWindow();
  };

  const typing = typingRows.map((r) => (r.contactId === -1 ? { ...r, contactName: counsellorName } : r));
  const barLabel = minimizedLabel(phase, unseen, conversation.queuePosition);

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
              onClick={() => setConfirm('leave')}
            >
              {busy === 'leaving' ? T.leavingQueue : T.leaveQueue}
            </button>
          )}
          {phase === 'active' && (
            <button
              type="button"
              className={`${secondaryButton} ${s.headerButton}`}
              disabled={busy !== null}
              onClick={() => setConfirm('end')}
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
          {phase === 'queue' && preSubmitAllowed && done && preSubmitChoice === null && (
            <div className={s.choices} role="group" aria-labelledby="pre-submit-question">
              <p id="pre-submit-question">{T.preSubmitQuestion}</p>
              <button type="button" className={primaryButton} onClick={() => setPreSubmitChoice('yes')}>
                {T.preSubmitYes}
              </button>
              <button type="button" className={secondaryButton} onClick={() => setPreSubmitChoice('no')}>
                {T.preSubmitNo}
              </button>
            </div>
          )}
        </>
      }
    >
      <MessageInput
        enabled={inputEnabled}
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
        onClose={() => setConfirm(null)}
        onResult={(yes) => {
          if (!yes) return;
          if (phase === 'active') void end();
          else if (phase === 'queue') void leave();
        }}
      />
      <Modal
        open={endedModal}
        onClose={() => setEndedModal(false)}
        title={T.endedModalTitle}
        titleSize="small"
      >
        <p>{T.endedModalText}</p>
        <div className={actions}>
          <button type="button" className={primaryButton} onClick={() => setEndedModal(false)}>
            {T.closedModalOk}
          </button>
        </div>
      </Modal>
      <Modal
        open={closedModal}
        onClose={() => setClosedModal(false)}
        title={T.closedModalTitle}
        titleSize="small"
      >
        <p>{T.closedModalText}</p>
        <div className={actions}>
          <button type="button" className={primaryButton} onClick={() => setClosedModal(false)}>
            {T.closedModalOk}
          </button>
        </div>
      </Modal>
    </ChatWindowFrame>
  );
}
