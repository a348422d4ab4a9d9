import type { Result } from './result.ts';
/**
 * Mail conversations and the chat history (SPEC §2 Historic chat window, §3 Conversation, §7
 * Conversations): lists by selection, a thread's messages, favourite (rate) and delete. The worker
 * writes `conversations` and `chatMessages`; the UI derives lists, unread markers and stars.
 */

/** What the page knows about the device, for the mail's conversation properties (SPEC §3). */
export interface MailDeviceInfo {
  userAgent: string;
  platform: string;
  /** Runs as an installed app (display-mode standalone). */
  installed: boolean;
}

/** The outbox `kind` of a new mail; its rows are watched by the UI while they wait. */
export const MAIL_KIND = 'mail';

export type SentMail =
  /** The server has it: the new thread's id. */
  | { status: 'sent'; conversationId: number }
  /** Offline or the server unreachable: kept in the outbox and sent once, later. */
  | { status: 'queued'; clientId: string }
  /**
   * The server asked to wait (too many messages in a short time): kept in the outbox and sent on its
   * own once the wait is over; `message` is the server's Swedish text, when it gave one.
   */
  | { status: 'waiting'; clientId: string; message: string | null };
/** 'failed': the server refused it (it will not be retried). */
export type SendMailResult = Result<SentMail, 'failed'>;

export type ConversationSelection = 'mine' | 'resolved' | 'active';
