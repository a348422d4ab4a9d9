import type { ConversationMessageWire } from './conversations.ts';
/** The real-time hub of SPEC §7. */
export const HUB_PATH = '/hubs/portalaccountevents';
export const HUB_METHODS = {
  subscribe: 'SubscribeToEntity',
  unsubscribe: 'UnsubscribeFromEntity',
  sendMessage: 'SendMessage',
  /**
   * Ours (SPEC is silent): answers at once with no result. A client that must know within seconds
   * whether its connection still carries anything (a live chat in view) invokes it; SignalR's own
   * keep-alive would take 30 s to tell.
   */
  ping: 'Ping',
} as const;
export const HUB_CLIENT_EVENT = 'SendEvent';

export const HUB_EVENTS = {
  notificationCreated: 'PortalAccountNotificationCreated',
  chatCreated: 'Chat.Created',
  agentIsTyping: 'Conversation.AgentIsTyping',
  contactIsTyping: 'conversation.contactistyping',
  messageCreated: 'ConversationMessageCreated',
  conversationUpdated: 'Conversation.Updated',
  contactConnected: 'conversation.contactconnected',
  contactDisconnected: 'conversation.contactdisconnected',
  meetingCreated: 'Meeting.Created',
  meetingUpdated: 'Meeting.Updated',
  meetingDeleted: 'Meeting.Deleted',
  contactUpdated: 'Contact.Updated',
} as const;

/**
 * Speed (ours, SPEC is silent): `ConversationMessageCreated` carries the new message itself, so a client shows it at once
 * and reconciles with a fetch afterwards, off the hot path. `message` is what the messages endpoint
 * lists for the same conversation (older servers sent only the ids: clients then fetch).
 */
export interface MessageCreatedEventData {
  conversationId: number;
  messageId: number;
  message?: ConversationMessageWire;
}

/**
 * Entity keys name what a connection subscribes to: `{Type}:{id}`. The spec leaves the format open;
 * this one is readable in logs and cheap to parse.
 */
export type EntityType = 'Conversation' | 'Meeting' | 'Contact' | 'Series' | 'PeerBoard';
export const entityKey = (type: EntityType, id: number | string): string => `${type}:${id}`;
export function parseEntityKey(key: string): { type: EntityType; id: number } | null {
  const m = /^(Conversation|Meeting|Contact|Series|PeerBoard):(\d{1,15})$/.exec(key);
  return m ? { type: m[1] as EntityType, id: Number(m[2]) } : null;
}
