import type { Result, WriteAnswer } from './result.ts';
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

/** A new mail's answer (WriteAnswer): once sent, the new thread's id. */
export type SentMail = WriteAnswer<{ conversationId: number }>;
/** 'failed': the server refused it (it will not be retried). */
export type SendMailResult = Result<SentMail, 'failed'>;

export type ConversationSelection = 'mine' | 'resolved' | 'active';
