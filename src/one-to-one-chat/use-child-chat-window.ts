import { useEffect, useMemo, useRef, useState } from 'react';
import { differenceInMinutes } from 'date-fns';
import type { ChatMessageRow, ConversationRow } from '../../worker/client/group-support.ts';
import type { ChatStateRow } from '../../worker/client/one-to-one-chat.ts';
import { showToast } from '../dialogs/toast-store.ts';
import type { useApi } from '../data/index.ts';
import { DURATION_UPDATE_MS } from '../../contract/timings.ts';
import { useNow } from '../ui-kit/use-now.ts';
import { hideChatWindow } from './chat-store.ts';
import {
  canPreSubmit,
  firstCounsellorMessageDate,
  phaseOf,
  showsClosedModal,
  withCounsellorMessage,
  type ChildChatPhase as ChatPhase,
} from './child-chat-state.ts';
import { CHILD_CHAT_TEXTS as T } from './texts.ts';

// The child's chat window's state and actions, each in a hook named for what it keeps, so that the
// window (child-chat-window.tsx) only draws.

type Api = ReturnType<typeof useApi>;

/**
 * The conversation as the window shows it: live with the counsellor's first words, in the render
 * that shows them, and kept so once read (a minimised window reads no message; child-chat-state.ts,
 * withCounsellorMessage).
 */
export function useLiveConversation(stored: ConversationRow, rows: readonly ChatMessageRow[] | undefined) {
  const readFirstWords = useMemo(() => (rows ? firstCounsellorMessageDate(rows) : null), [rows]);
  const [keptFirstWords, setKeptFirstWords] = useState<{ id: number; at: string } | null>(null);
  const firstWordsAt = readFirstWords ?? (keptFirstWords?.id === stored.id ? keptFirstWords.at : null);
  useEffect(() => {
    if (readFirstWords !== null) setKeptFirstWords({ id: stored.id, at: readFirstWords });
  }, [stored.id, readFirstWords]);
  return useMemo(() => withCounsellorMessage(stored, firstWordsAt), [stored, firstWordsAt]);
}

/**
 * SPEC §4: the active indicator when waiting turns active; the closed modal when the chat ends
 * without the child ending it. Answers whether that modal is open, and its close.
 */
export function usePhaseChanges(api: Api, conversation: ConversationRow, state: ChatStateRow) {
  const phase = phaseOf(conversation);
  const [closedModal, setClosedModal] = useState(false);
  const previousPhase = useRef(phase);
  useEffect(() => {
    const before = previousPhase.current;
    previousPhase.current = phase;
    if (before === 'queue' && phase === 'active') void api.markActive(new Date().toISOString());
    if (before !== 'ended' && phase === 'ended' && showsClosedModal(conversation, state))
      setClosedModal(true);
  }, [api, phase, conversation, state]);
  return { closedModal, closeClosedModal: () => setClosedModal(false) };
}

/**
 * New counsellor messages while minimised: the bar says so (a system notification, if allowed, comes
 * from the worker while the page is hidden: contract/system-notices.ts). Told from the
 * conversation's last counsellor message (the server's lastAgentMessageDate, which every counsellor
 * message moves), not from its rows, which a minimised window does not read: one already there when
 * the window mounts (after a reload) is not new. An ended chat's bar says it ended, so nothing stays
 * unseen.
 */
export function useUnseenWhileMinimized(minimized: boolean, conversation: ConversationRow, phase: ChatPhase) {
  const [unseen, setUnseen] = useState(false);
  const seenAgentMessage = useRef<string | null | undefined>(undefined);
  const lastAgentMessage = conversation.lastAgentMessageDate;
  useEffect(() => {
    if (!minimized || seenAgentMessage.current === undefined || phase === 'ended') {
      seenAgentMessage.current = lastAgentMessage;
      setUnseen(false);
      return;
    }
    if (lastAgentMessage !== seenAgentMessage.current) {
      seenAgentMessage.current = lastAgentMessage;
      if (lastAgentMessage !== null) setUnseen(true);
    }
  }, [minimized, lastAgentMessage, phase]);
  return unseen;
}

/**
 * 'Chatt live N minuter', counted from the chat's start: the server's `liveSince` (the counsellor's
 * first message, also what the daily limit counts from), so every tab and a reload agree.
 */
export function useLiveMinutes(conversation: ConversationRow, state: ChatStateRow): number {
  const now = useNow(DURATION_UPDATE_MS);
  const activeSince =
    conversation.liveSince ??
    state.activeSince ??
    conversation.lastAgentMessageDate ??
    conversation.loggedDate;
  return Math.max(0, differenceInMinutes(now, new Date(activeSince)));
}

/**
 * Whether the child may write before the counsellor comes (the pre-submit question), what they
 * chose, and what that means for the text box.
 */
export function usePreSubmit(conversation: ConversationRow, state: ChatStateRow, phase: ChatPhase) {
  const [choice, setChoice] = useState<'yes' | 'no' | null>(null);
  const allowed = canPreSubmit(conversation, state);
  const preSubmitting = phase === 'queue' && allowed && choice === 'yes';
  return {
    allowed,
    choice,
    choose: setChoice,
    preSubmitting,
    inputEnabled: phase === 'active' || preSubmitting,
  };
}

/**
 * What the window's buttons do: leave the queue and end the chat, each asked first and busy while it
 * runs, the child's own end confirmed (SPEC §8 'Avslutad / chatten är avslutad'), and close an ended
 * chat.
 */
export function useChatActions(api: Api, conversationId: number) {
  const [confirm, setConfirm] = useState<'leave' | 'end' | null>(null);
  const [busy, setBusy] = useState<'leaving' | 'ending' | null>(null);
  const [endedModal, setEndedModal] = useState(false);
  const leave = async () => {
    setBusy('leaving');
    try {
      await api.leaveQueue(conversationId);
    } finally {
      setBusy(null);
    }
  };
  const end = async () => {
    setBusy('ending');
    try {
      if ((await api.endChat(conversationId)).ok) setEndedModal(true);
      else showToast(T.endFailed, { kind: 'error' });
    } finally {
      setBusy(null);
    }
  };
  const close = async () => {
    await api.closeChat();
    hideChatWindow();
  };
  return {
    confirm,
    ask: setConfirm,
    busy,
    leave,
    end,
    close,
    endedModal,
    closeEndedModal: () => setEndedModal(false),
  };
}
