import { useEffect, useMemo, useRef, useState } from 'react';
import { differenceInMinutes } from 'date-fns';
import type { MeetingRow } from '../../worker/client/group-support.ts';
import { useApi, useOpenGroupChat } from '../data/index.ts';
import { useProfile } from '../data/live-queries.ts';
import { ConfirmationDialog } from '../dialogs/confirmation-dialog.tsx';
import { isActive, isGroupSoonStarting, isResolvedOrClosed } from '../../contract/conversation-state.ts';
import { startsChat } from '../../contract/author-kinds.ts';
import { useConversation, useTyping } from '../data/meeting-and-chat-hooks.ts';
import { olderOf, useChatPages } from '../data/chat-pages.ts';
import { DURATION_UPDATE_MS } from '../../contract/timings.ts';
import { useNow } from '../ui-kit/use-now.ts';
import { CloseIcon } from '../ui-kit/icons.tsx';
import { iconButton } from '../styles/controls.ts';
import { chatEntries, type ChatEntry } from './chat-messages.ts';
import { ChatWindowFrame } from './chat-window-frame.tsx';
import { MessageInput } from './message-input.tsx';
import { MessageList } from './message-list.tsx';
import { CHAT_TEXTS, minutesText } from './texts.ts';
import { TypingIndicator } from './typing-indicator.tsx';

const info = (key: string, content: string, loggedDate: string): ChatEntry => ({
  key,
  content,
  loggedDate,
  authorType: 'info',
  authorName: '',
  sendStatus: null,
  createdAfterClosedConversation: false,
  sameAuthorAsPreviousMessage: false,
});

export interface ChatWindowProps {
  meeting: MeetingRow;
  minimized: boolean;
  onMinimize: (minimized: boolean) => void;
  /** The user left the chat. */
  onLeave: () => void;
}

/** SPEC §2 Chat window (group): a full-screen modal over the meeting detail. */
export function ChatWindow({ meeting, minimized, onMinimize, onLeave }: ChatWindowProps) {
  const api = useApi();
  const profile = useProfile();
  const conversationId = meeting.conversation?.id ?? null;
  const conversation = useConversation(conversationId);
  // Read while minimised too: the bar says when others wrote (the newest page only: older pages are
  // read as the open list nears its top).
  const pages = useChatPages(conversationId);
  const { rows } = pages;
  const typingRows = useTyping(conversationId) ?? [];
  const now = useNow(DURATION_UPDATE_MS);
  const [confirmLeave, setConfirmLeave] = useState(false);
  const [startedAt, setStartedAt] = useState<string | null>(null);
  const wasSoonStarting = useRef(false);
  const [unseen, setUnseen] = useState(false);
  const seenCount = useRef(0);

  useOpenGroupChat(conversationId);

  const soon = conversationId === null || !conversation || isGroupSoonStarting(conversation);
  const active = isActive(conversation);
  const ended = isResolvedOrClosed(conversation);

  useEffect(() => {
    if (soon) wasSoonStarting.current = true;
    else if (active && wasSoonStarting.current && !startedAt) setStartedAt(new Date().toISOString());
  }, [soon, active, startedAt]);

  const entries = useMemo(() => {
    const list = chatEntries(rows ?? [], profile?.contactId);
    if (startedAt) {
      const at = list.findIndex((e) => e.loggedDate > startedAt);
      const notice = info('started', CHAT_TEXTS.started, startedAt);
      if (at === -1) list.push(notice);
      else list.splice(at, 0, notice);
    }
    if (soon) list.push(info('soon', CHAT_TEXTS.soonStarting, ''));
    if (ended) list.push(info('ended', CHAT_TEXTS.ended, conversation?.closedDate ?? ''));
    return list;
  }, [rows, profile?.contactId, startedAt, soon, ended, conversation?.closedDate]);

  const othersCount = entries.filter((e) => e.authorType !== 'me' && e.authorType !== 'info').length;
  useEffect(() => {
    if (!minimized) {
      seenCount.current = othersCount;
      setUnseen(false);
    } else if (othersCount > seenCount.current) {
      setUnseen(true);
    }
  }, [minimized, othersCount]);

  // 'Chatt live N minuter' counts from the chat's start: the leader's first message (SPEC §4: a
  // group chat becomes active with it), not from when the meeting was opened for chat.
  const chatStart =
    conversation?.liveSince ??
    (rows ?? [])
      .filter((r) => startsChat(r.authorKind) && r.id !== null)
      .reduce<string | null>(
        (first, r) => (first === null || r.loggedDate < first ? r.loggedDate : first),
        null,
      );
  const duration = chatStart ? differenceInMinutes(now, new Date(chatStart)) : 0;
  const statusLine = ended
    ? CHAT_TEXTS.ended
    : active
      ? `${CHAT_TEXTS.live} ${minutesText(Math.max(0, duration))}`
      : CHAT_TEXTS.soonStarting;
  const placeholder = ended
    ? CHAT_TEXTS.placeholderEnded
    : active
      ? CHAT_TEXTS.placeholderActive
      : CHAT_TEXTS.placeholderSoon;

  // 'Aktiv chatt' only for a chat that runs; one the leader has not begun is in the queue state of
  // SPEC §4 (InProgress without an agent message), so its bar says 'Chattkö', a label of SPEC §2.
  const barLabel = unseen
    ? CHAT_TEXTS.newMessages
    : ended
      ? CHAT_TEXTS.ended
      : active
        ? CHAT_TEXTS.activeChat
        : CHAT_TEXTS.queueBar;

  return (
    <ChatWindowFrame
      minimized={minimized}
      onMinimize={onMinimize}
      barLabel={barLabel}
      titleId="chat-window-title"
      title={meeting.subject}
      status={statusLine}
      minimizeLabel={CHAT_TEXTS.minimize}
      actions={
        <button
          type="button"
          className={iconButton}
          aria-label={ended ? CHAT_TEXTS.close : CHAT_TEXTS.leave}
          onClick={() => (ended ? onLeave() : setConfirmLeave(true))}
        >
          <CloseIcon />
        </button>
      }
      body={
        <>
          <MessageList entries={entries} older={olderOf(pages)} />
          <TypingIndicator rows={typingRows} myContactId={profile?.contactId} />
        </>
      }
    >
      <MessageInput
        enabled={active && conversationId !== null}
        placeholder={placeholder}
        onTyping={() => {
          if (conversationId !== null) api.sendTyping(conversationId).catch(() => undefined);
        }}
        onSend={async (text) => {
          if (conversationId !== null) await api.sendChatMessage(conversationId, text);
        }}
      />
      <ConfirmationDialog
        open={confirmLeave}
        text={active ? CHAT_TEXTS.closeDownConfirm : CHAT_TEXTS.leaveConfirm}
        yes={active ? CHAT_TEXTS.closeDownYes : CHAT_TEXTS.leaveYes}
        no={CHAT_TEXTS.leaveNo}
        onClose={() => setConfirmLeave(false)}
        onResult={(yes) => yes && onLeave()}
      />
    </ChatWindowFrame>
  );
}
