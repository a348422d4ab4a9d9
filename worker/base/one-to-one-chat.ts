import type { Result } from './result.ts';
import type { CalmTimes } from '../../contract/calm-times.ts';
/**
 * The child's one-to-one chat with a counsellor (SPEC §2 Chat window, §4 Conversation): the worker
 * creates it, keeps it fresh (queue position 15 s, ping 30 s, messages 45 s) and writes Dexie.
 */

/** Local flags of SPEC §3/§4 that outlive a reload: the stored chat id, pre-submit, cancelled by user. */
export interface ChatStateRow {
  id: 'current';
  conversationId: number | null;
  /** The child wrote the one pre-submit message (SPEC §4: a stored flag prevents repeats). */
  preSubmitted: boolean;
  /** The child left the queue or ended the chat (decides 'cancelled by the user'). */
  cancelledByUser: boolean;
  /** Set when the chat became active while this device watched (the active-chat indicator). */
  activeSince: string | null;
  /** The conversation was in the queue or active when this device last saw it (closed indicator). */
  wasLive: boolean;
  /** 'Hur kändes chatten?' for the ended chat, once asked (absent in rows of an older build). */
  feedback?: ChatFeedbackState | null;
}

/**
 * Where the ended chat's 'Hur kändes chatten?' stands: answered (its free text is asked next),
 * thanked (the text was sent or declined), or skipped ('Hoppa över': nothing more is asked).
 */
export interface ChatFeedbackState {
  conversationId: number;
  step: 'answered' | 'thanked' | 'skipped';
}

/**
 * The new chat's conversation id. 'rate_limited': over the server's limit (429), with its Swedish
 * text in `message` to show as it is.
 */
export type StartChatResult = Result<
  number,
  'HasCompletedAConversation' | 'HasActive' | 'offline' | 'failed' | 'rate_limited'
>;

/** What the UI knows about the device (the worker cannot see display-mode). */
export interface DeviceInfo {
  userAgent: string;
  platform: string;
  installed: boolean;
}

export type ChatAccountStatus =
  'HasCompletedAConversation' | 'HasActive' | 'NoCompletedConversation' | 'Error';

/** The last copy of a channel's calm times (contract/calm-times.ts), kept for offline reading. */
export interface CalmTimesRow extends CalmTimes {
  /** `calmTimesKey(channel)`. */
  key: string;
  /** When this device fetched it (ms). */
  fetchedAt: number;
}

/** The row key of a channel's calm times (a chat may have no channel). */
export const calmTimesKey = (channel: number | null): string => (channel === null ? 'none' : String(channel));
