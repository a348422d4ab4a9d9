import type { Conversation } from '../../contract/conversations.ts';
import { startsChat } from '../../contract/author-kinds.ts';
import type { ChatMessageRow } from '../../worker/client/group-support.ts';
import type { ChatStateRow } from '../../worker/client/one-to-one-chat.ts';
import { chatEntries, type ChatEntry } from '../chat-window/chat-messages.ts';
import {
  CONVERSATION_STATE,
  allowPreSubmit,
  isActive,
  isCancelled,
  isInQueue,
  isResolvedOrClosed,
} from '../../contract/conversation-state.ts';
import { CHILD_CHAT_TEXTS as T } from './texts.ts';

/** SPEC §4 Conversation, seen from the child's chat window. */
export type ChildChatPhase = 'queue' | 'active' | 'ended';

type ConversationLike = Pick<
  Conversation,
  'state' | 'lastAgentMessageDate' | 'lastContactMessageDate' | 'queuePosition' | 'closedDate'
> &
  Partial<Pick<Conversation, 'liveSince'>>;

/**
 * The conversation as the child's window shows it once it has read a counsellor's message (at
 * `firstWordsAt`, child-chat-window.tsx keeps it): a chat still stored in the queue is live from
 * that message on. The worker stores the message from its hub event, and the conversation's new
 * state only once fetched after it; the two are read apart as well. So the first words and the live
 * chat ('Du har nu kopplats fram till en kurator', 'Chatt live', 'Avsluta') show in one render,
 * never the words in the queue's window (docs/decisions.md, "The counsellor's first words").
 */
export function withCounsellorMessage<C extends ConversationLike>(c: C, firstWordsAt: string | null): C {
  if (firstWordsAt === null || !isInQueue(c)) return c;
  return {
    ...c,
    state: CONVERSATION_STATE.InProgress,
    lastAgentMessageDate: c.lastAgentMessageDate ?? firstWordsAt,
    liveSince: c.liveSince ?? firstWordsAt,
  };
}

/** The date of the first counsellor message among `rows` (the one that makes a chat live). */
export function firstCounsellorMessageDate(rows: readonly ChatMessageRow[]): string | null {
  return firstAgentDate(rows);
}

export function phaseOf(c: ConversationLike): ChildChatPhase {
  if (isActive(c)) return 'active';
  if (isInQueue(c)) return 'queue';
  return 'ended';
}

/** SPEC §4: cancelled, and not by the user (connection lost or away for more than 5 minutes). */
export function isUnexpectedCancel(
  c: ConversationLike,
  state: Pick<ChatStateRow, 'cancelledByUser'>,
): boolean {
  return isCancelled(c) && !state.cancelledByUser;
}

/**
 * SPEC §4 closed indicator (the 'Chatt avslutad' modal here): resolved or closed from an earlier live
 * state, or cancelled not by the user. A chat the child ended themselves needs no modal.
 */
export function showsClosedModal(
  c: ConversationLike,
  state: Pick<ChatStateRow, 'cancelledByUser' | 'wasLive'>,
) {
  if (state.cancelledByUser) return false;
  return (isResolvedOrClosed(c) && state.wasLive) || isCancelled(c);
}

/** Pre-submit (SPEC §4): in queue, nothing written yet, and the stored flag not set. */
export function canPreSubmit(c: ConversationLike, state: Pick<ChatStateRow, 'preSubmitted'>): boolean {
  return allowPreSubmit(c) && !state.preSubmitted;
}

export function placeholderOf(phase: ChildChatPhase, preSubmitting: boolean): string {
  if (phase === 'active') return T.placeholderActive;
  if (phase === 'ended') return T.placeholderEnded;
  return preSubmitting ? T.placeholderPreSubmit : T.placeholderQueue;
}

/**
 * SPEC §2 minimised bar labels. An ended chat says so even with unread messages: that it ended is
 * the news, and opening it shows the last messages.
 */
export function minimizedLabel(phase: ChildChatPhase, unseen: boolean, queuePosition: number | null): string {
  if (phase === 'ended') return T.ended;
  if (unseen) return T.newMessages;
  if (phase === 'active') return T.activeChat;
  return queuePosition ? T.queuePlace(queuePosition) : T.queueBar;
}

/** SPEC §4 bot messages in the queue; the queue explanation only outside the chat-only variant. */
export function botTexts(providerName: string, chatMode: boolean): string[] {
  const all = [T.bot.welcome(providerName), chatMode ? null : T.bot.queue, T.bot.returnReminder, T.bot.tip];
  return all.filter((t): t is string => t !== null);
}

const extra = (
  key: string,
  content: string,
  authorType: ChatEntry['authorType'],
  label?: string,
): ChatEntry => ({
  key,
  content,
  loggedDate: '',
  authorType,
  authorName: '',
  sendStatus: null,
  createdAfterClosedConversation: false,
  sameAuthorAsPreviousMessage: false,
  ...(label ? { label } : {}),
});

export interface ChildEntriesInput {
  rows: readonly ChatMessageRow[];
  myContactId: number | undefined;
  conversation: ConversationLike;
  state: Pick<ChatStateRow, 'cancelledByUser' | 'activeSince' | 'preSubmitted'>;
  providerName: string;
  /** The bot messages revealed so far (they come one by one). */
  botsShown: readonly string[];
  /** Every bot message is shown: the queue position message follows. */
  botsDone: boolean;
  /**
   * Every row of the chat is read (no older page waits: src/data/chat-pages.ts). Otherwise a notice
   * that belongs before the rows read is left for when they are.
   */
  allRead?: boolean;
}

/**
 * The chat window's list: the conversation's messages with the child's labels, plus the queue's bot
 * and position messages while waiting, the connected notice once active, and 'Chatten är avslutad'
 * always last once ended (SPEC §4).
 */
export function childEntries(input: ChildEntriesInput): ChatEntry[] {
  const { conversation: c, state } = input;
  const phase = phaseOf(c);
  // The server's liveSince is the counsellor's first message; the rows read may not reach back to it.
  const firstAgent = c.lastAgentMessageDate === null ? null : (c.liveSince ?? firstAgentDate(input.rows));
  const counsellor = `${input.providerName} ${T.counsellor}`;
  const list = chatEntries(input.rows, input.myContactId).map((e): ChatEntry => {
    if (e.authorType === 'staff')
      return { ...e, label: e.authorName ? `${counsellor} ${e.authorName}` : counsellor };
    // A message the child wrote before any counsellor did is the pre-submitted text.
    if (e.authorType === 'me' && (firstAgent === null || e.loggedDate < firstAgent))
      return { ...e, label: T.presubmittedLabel };
    return e;
  });
  if (phase === 'queue') {
    const bots = input.botsShown.map((text, i) => extra(`bot:${i}`, text, 'bot', T.queueMessageLabel));
    list.unshift(...bots);
    if (state.preSubmitted && list.some((e) => e.label === T.presubmittedLabel))
      list.push(extra('presubmit-sent', T.preSubmitSent, 'info'));
    if (c.queuePosition && input.botsDone)
      list.push(extra('queue-position', T.queuePosition(c.queuePosition), 'bot', T.queueMessageLabel));
    return list;
  }
  const at = state.activeSince ?? firstAgent;
  const oldestRead = input.rows.reduce<string | null>(
    (oldest, r) => (oldest === null || r.loggedDate < oldest ? r.loggedDate : oldest),
    null,
  );
  const noticeRead = input.allRead !== false || (oldestRead !== null && at !== null && at >= oldestRead);
  if (at && noticeRead) {
    const index = list.findIndex(
      (e) => e.authorType === 'staff' || (e.loggedDate !== '' && e.loggedDate > at),
    );
    const notice = extra('connected', T.connected, 'info');
    if (index === -1) list.push(notice);
    else list.splice(index, 0, notice);
  }
  if (phase === 'ended') {
    if (isUnexpectedCancel(c, state)) list.push(extra('unexpected-cancel', T.unexpectedCancel, 'info'));
    list.push(extra('ended', T.ended, 'info'));
  }
  return list;
}

function firstAgentDate(rows: readonly ChatMessageRow[]): string | null {
  let first: string | null = null;
  for (const r of rows)
    if (startsChat(r.authorKind) && (first === null || r.loggedDate < first)) first = r.loggedDate;
  return first;
}
