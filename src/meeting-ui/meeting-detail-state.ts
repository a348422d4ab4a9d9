import type { Conversation } from '../../contract/conversations.ts';
import type { Meeting } from '../../contract/meetings.ts';
import { isActive, isEnded, isGroupSoonStarting } from '../../contract/conversation-state.ts';
import { CANCELLED } from './meeting-state.ts';
import {
  isMeetingCancelled,
  isMeetingInProgress,
  isMeetingNotStarted,
} from '../../contract/meeting-state.ts';
import { DEBUG_WINDOW_MS, DEBUG_TAPS } from '../../contract/timings.ts';

type ConversationLike = Pick<Conversation, 'state' | 'lastAgentMessageDate' | 'lastContactMessageDate'>;

export type DetailBadge =
  'Chatten börjar strax' | 'Pågående' | 'Chatten är avslutad' | 'Kommande' | 'Avslutad' | typeof CANCELLED;

/** SPEC §2 Meeting detail status badge. A missing conversation of a running meeting is about to start. */
export function detailBadge(
  meeting: Pick<Meeting, 'state'>,
  conversation: ConversationLike | null | undefined,
): DetailBadge {
  if (isMeetingInProgress(meeting)) {
    if (!conversation || isGroupSoonStarting(conversation)) return 'Chatten börjar strax';
    if (isEnded(conversation)) return 'Chatten är avslutad';
    return 'Pågående';
  }
  if (isMeetingNotStarted(meeting)) return 'Kommande';
  if (isMeetingCancelled(meeting)) return CANCELLED;
  return 'Avslutad';
}

/** 'Se chatthistorik': the meeting's conversation has ended. */
export function hasHistoricConversation(conversation: ConversationLike | null | undefined): boolean {
  return isEnded(conversation);
}

/** 'Öppna chatt': chat window closed, conversation active or missing, meeting in progress. */
export function showOpenChat(
  chatOpen: boolean,
  meeting: Pick<Meeting, 'state'>,
  conversation: ConversationLike | null | undefined,
): boolean {
  if (chatOpen || !isMeetingInProgress(meeting)) return false;
  return !conversation || isActive(conversation) || isGroupSoonStarting(conversation);
}

/** The chat window opens by itself when the conversation is active and the meeting in progress. */
export function opensChatAutomatically(
  meeting: Pick<Meeting, 'state'>,
  conversation: ConversationLike | null | undefined,
): boolean {
  return isMeetingInProgress(meeting) && isActive(conversation);
}

/** The private-message form shows while the meeting is in progress or not started. */
export function showPrivateMessage(meeting: Pick<Meeting, 'state'>): boolean {
  return isMeetingInProgress(meeting) || isMeetingNotStarted(meeting);
}

/** Keeps the taps of the last 5 s; true when there are enough to reveal the block. */
export function registerTap(taps: number[], at: number): { taps: number[]; reveal: boolean } {
  const recent = [...taps.filter((t) => at - t < DEBUG_WINDOW_MS), at];
  return { taps: recent, reveal: recent.length >= DEBUG_TAPS };
}
