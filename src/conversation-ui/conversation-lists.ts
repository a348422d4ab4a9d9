import type { Conversation } from '../../contract/conversations.ts';
import { isRateLimited, type OutboxRow } from '../../worker/client/db.ts';
import { MAIL_KIND } from '../../worker/client/mail-and-history.ts';
import { isEnded } from '../../contract/conversation-state.ts';
import { CONVERSATION_UI_TEXTS as T } from './texts.ts';
import { RATING } from '../../contract/limits.ts';

/** SPEC §3 Conversation: derived fields of the child's mail threads and chat history. */
type Row = Pick<
  Conversation,
  | 'id'
  | 'state'
  | 'systemType'
  | 'meetingId'
  | 'loggedDate'
  | 'readDate'
  | 'rating'
  | 'lastAgentMessageDate'
  | 'lastContactMessageDate'
>;

export type ConversationType = 'chat' | 'mail' | 'groupchat';

/** chat when the system type contains 'chat', else mail; a meeting's chat is the third kind. */
export function conversationType(c: Pick<Row, 'systemType' | 'meetingId'>): ConversationType {
  if (c.meetingId !== null || c.systemType === 'groupchat') return 'groupchat';
  return c.systemType.includes('chat') ? 'chat' : 'mail';
}

/** An agent message exists and the child has not read the thread since it was written. */
export function hasUnreadMessages(c: Pick<Row, 'lastAgentMessageDate' | 'readDate'>): boolean {
  if (!c.lastAgentMessageDate) return false;
  if (!c.readDate) return true;
  return Date.parse(c.readDate) < Date.parse(c.lastAgentMessageDate);
}

export function isFavorite(c: Pick<Row, 'rating'>): boolean {
  return (c.rating ?? 0) > RATING.favouriteAbove;
}

/** The latest thing that happened in a conversation (its place in a list). */
export function lastActivity(c: Row): string {
  return [c.loggedDate, c.lastAgentMessageDate, c.lastContactMessageDate]
    .filter((d): d is string => !!d)
    .reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a));
}

const newestFirst = (by: (c: Row) => string) => (a: Row, b: Row) => Date.parse(by(b)) - Date.parse(by(a));

/** Mail threads, the most recently active first. */
export function mailThreads<T extends Row>(rows: readonly T[]): T[] {
  return rows.filter((c) => conversationType(c) === 'mail').sort(newestFirst(lastActivity));
}

/**
 * Finished chats (resolved, closed, cancelled), the newest first: one-to-one chats, and the group
 * chats of meetings the server lists as the user's (a participant's my pages).
 */
export function chatHistory<T extends Row>(rows: readonly T[]): T[] {
  return rows
    .filter((c) => conversationType(c) !== 'mail' && isEnded(c))
    .sort(newestFirst((c) => c.loggedDate));
}

export interface PendingMail {
  clientId: string;
  subject: string;
  /** What the list says beside it: waiting to be sent, or the server's words after a 429. */
  status: string;
}

/**
 * Mails written but not yet on the server (offline, or the server asked to wait after too many):
 * shown so the child sees they are kept. A mail the server refused for good is not among them.
 */
export function pendingMails(rows: readonly OutboxRow[]): PendingMail[] {
  return rows
    .filter((row) => row.kind === MAIL_KIND && row.status !== 'sent' && !row.final)
    .map((row) => ({
      clientId: row.clientId,
      subject: (row.body as { subject?: string }).subject ?? '',
      status: isRateLimited(row) ? row.lastMessage || T.pendingWaiting : T.pending,
    }));
}
