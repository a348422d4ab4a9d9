/** SPEC §3 Conversation, Conversation message, Conversation connection; §7 Conversations. */
export type ConversationState =
  'New' | 'Responded' | 'OnHold' | 'InProgress' | 'Resolved' | 'Closed' | 'Cancelled';
export type SystemType = 'chat' | 'mail' | 'groupchat';

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
  channel: number | null;
  meetingId: number | null;
}

export type MessageAuthorKind = 'contact' | 'agent' | 'bot' | 'system';

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

/** POST {api}/conversationmessage */
export interface CreateConversationMessage {
  content: string;
  conversation: number;
  loggedDate?: string;
}

export type ActivityType = 'Typing' | 'Log' | 'Read' | 'Ping' | 'Error' | 'Connect' | 'Disconnect';

/** POST {api}/features/conversations/{appId}/activity */
export interface ConversationActivity {
  conversation: number;
  content?: string;
  type: ActivityType;
}

export interface ConversationConnectionWire {
  conversation: number;
  contact: number;
  contactName: string;
  connectedDate: string | null;
  lastPingedDate: string | null;
  disconnectedDate: string | null;
}

/** SPEC §5/§9: the group chat limit. */
export const GROUP_CHAT_MAX_LENGTH = 700;
export const PRIVATE_MESSAGE_MAX_LENGTH = 800;
