import type { LoadResult } from './group-support.ts';

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

export type SendMailResult =
  /** The server has it: the new thread's id. */
  | { status: 'sent'; conversationId: number }
  /** Offline or the server unreachable: kept in the outbox and sent once, later. */
  | { status: 'queued'; clientId: string }
  /**
   * The server asked to wait (too many messages in a short time): kept in the outbox and sent on its
   * own once the wait is over; `message` is the server's Swedish text, when it gave one.
   */
  | { status: 'waiting'; clientId: string; message: string | null }
  /** The server refused it (it will not be retried). */
  | { status: 'failed' };

export type ConversationSelection = 'mine' | 'resolved' | 'active';

export interface MailAndHistoryApi {
  /**
   * GET the child's conversations (SPEC §7, take 9999) into Dexie. 'mine' replaces every one-to-one
   * row (mail threads, chats) with the server's list; the others only add and update.
   */
  loadConversations(selection?: ConversationSelection): Promise<LoadResult>;
  /**
   * Opens a mail thread or a historic chat: fetches the conversation and its messages, marks it
   * read and, while open, follows it live. Call `closeConversation` when it is no longer shown.
   */
  openConversation(conversationId: number): Promise<LoadResult>;
  closeConversation(conversationId: number): Promise<void>;
  /** POST {api}/mail through the outbox (sent once, also after being written offline). */
  sendMail(subject: string, text: string, device: MailDeviceInfo): Promise<SendMailResult>;
  /** A reply in a mail thread: shown at once with its send status, sent through the outbox. */
  replyToConversation(conversationId: number, content: string): Promise<string>;
  /** SPEC §9: favourite is rating 5, not favourite 1. False when it could not be saved. */
  setFavourite(conversationId: number, favourite: boolean): Promise<boolean>;
  /** PUT delete: the conversation leaves the account and its messages are cleared everywhere. */
  deleteConversation(conversationId: number): Promise<boolean>;
}
