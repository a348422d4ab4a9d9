import type { ConversationMessageBody, ConversationMessagesQuery } from './schemas/conversations.ts';

/** SPEC §3 Conversation, Conversation message, Conversation connection; §7 Conversations. */
export type ConversationState =
  'New' | 'Responded' | 'OnHold' | 'InProgress' | 'Resolved' | 'Closed' | 'Cancelled';
export type SystemType = 'chat' | 'mail' | 'groupchat';
/** A queued chat's estimated wait: whole minutes (at least 1), or longer than 30 minutes; null: not known. */
export type EstimatedWait = { minutes: number } | { moreThan: 30 } | null;

export interface Conversation {
  id: number;
  subject: string;
  state: ConversationState;
  loggedDate: string;
  closedDate: string | null;
  readDate: string | null;
  rating: number | null;
  systemType: SystemType;
  messageCount: number;
  lastAgentMessageDate: string | null;
  lastContactMessageDate: string | null;
  queuePosition: number | null;
  /**
   * A queued chat: about how long a child at `queuePosition` waits, from how long this channel's
   * children waited in the last hour (server/conversations/wait-estimate.ts); null with too little
   * to go on. An aggregate of the channel, never another child's data. Absent from an older server.
   */
  estimatedWait?: EstimatedWait;
  channel: number | null;
  meetingId: number | null;
  /** A one-to-one chat: when it went live (the counsellor's first message); null before and for others. */
  liveSince: string | null;
  /**
   * A one-to-one chat: when the server ends it, the day's chat time used up (SPEC §9, 45 minutes a
   * day); null until it goes live. The clients count the time left down from it.
   */
  limitEndsAt: string | null;
}

/**
 * Who wrote a message: the child or participant (contact), staff (agent), the queue's bot, or the
 * system. What each kind means (whose side it is on, which name it shows, what it stamps) is its
 * entry in AUTHOR_KINDS (contract/author-kinds.ts), a record over this union: a new kind is a
 * compile error until it has one, and code elsewhere asks the record, not the kind's name.
 */
export const MESSAGE_AUTHOR_KINDS = ['contact', 'agent', 'bot', 'system'] as const;
export type MessageAuthorKind = (typeof MESSAGE_AUTHOR_KINDS)[number];

/** The end of an exhaustive switch: the compiler proves it is never reached. */
export function unreachable(value: never): never {
  throw new Error(`Unhandled case: ${String(value)}`);
}

export interface ConversationMessageWire {
  id: number;
  conversation: number;
  message: string;
  loggedDate: string;
  authorKind: MessageAuthorKind;
  contactId: number | null;
  contactName: string | null;
  agentId: number | null;
  agentName: string | null;
  createdAfterClosedConversation: boolean;
}

/** POST {api}/conversationmessage: the type of the route's schema (contract/schemas/conversations.ts). */
export type CreateConversationMessage = ConversationMessageBody;

/** The catch-up cursor of the message lists (contract/schemas/conversations.ts `since`). */
export type MessageListCursor = Pick<ConversationMessagesQuery, 'since'>;

export type ActivityType = 'Typing' | 'Log' | 'Read' | 'Ping' | 'Error' | 'Connect' | 'Disconnect';

export interface ConversationConnectionWire {
  conversation: number;
  contact: number;
  contactName: string;
  connectedDate: string | null;
  lastPingedDate: string | null;
  disconnectedDate: string | null;
}

/** The subject a chat is started with (SPEC §7 POST {api}/chat carries a subject; the child gives none). */
export const DEFAULT_CHAT_SUBJECT = 'Chatt';
