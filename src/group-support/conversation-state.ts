import type { Conversation } from '../../contract/conversations.ts';

/** SPEC §3 Conversation helper checks and §4 Conversation states. */
type ConversationLike = Pick<Conversation, 'state' | 'lastAgentMessageDate' | 'lastContactMessageDate'> & {
  systemType?: Conversation['systemType'];
};

const hasAgentMessage = (c: ConversationLike) => c.lastAgentMessageDate != null;

export function isInQueue(c: ConversationLike | null | undefined): boolean {
  if (!c) return false;
  if (c.state === 'New' || c.state === 'Responded' || c.state === 'OnHold') return true;
  return c.state === 'InProgress' && !hasAgentMessage(c);
}

export function isActive(c: ConversationLike | null | undefined): boolean {
  return !!c && c.state === 'InProgress' && hasAgentMessage(c);
}

export function isResolvedOrClosed(c: ConversationLike | null | undefined): boolean {
  return !!c && (c.state === 'Resolved' || c.state === 'Closed');
}

export function isCancelled(c: ConversationLike | null | undefined): boolean {
  return !!c && c.state === 'Cancelled';
}

/** Ended: resolved, closed or cancelled (the chat history can be shown). */
export function isEnded(c: ConversationLike | null | undefined): boolean {
  return isResolvedOrClosed(c) || isCancelled(c);
}

/** Group, InProgress and no agent (leader) message yet. */
export function isGroupSoonStarting(c: ConversationLike | null | undefined, isGroup = true): boolean {
  return !!c && isGroup && c.state === 'InProgress' && !hasAgentMessage(c);
}

/** While in queue and the contact has not written a message yet. */
export function allowPreSubmit(c: ConversationLike | null | undefined): boolean {
  return !!c && isInQueue(c) && c.lastContactMessageDate == null;
}

/** 'minut' for 1, else 'minuter'. */
export function minutesText(minutes: number): string {
  return `${minutes} ${minutes === 1 ? 'minut' : 'minuter'}`;
}
