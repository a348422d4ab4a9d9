import type { Conversation, ConversationState } from './conversations.ts';

/**
 * SPEC §3 Conversation helper checks and §4 Conversation states, once for the server, the worker,
 * the child app and the staff console.
 */
/** The states by name, for code that sets or compares one (no state literal outside contract/). */
export const CONVERSATION_STATE = {
  New: 'New',
  Responded: 'Responded',
  OnHold: 'OnHold',
  InProgress: 'InProgress',
  Resolved: 'Resolved',
  Closed: 'Closed',
  Cancelled: 'Cancelled',
} as const satisfies { [S in ConversationState]: S };

export const CONVERSATION_STATES = [
  'New',
  'Responded',
  'OnHold',
  'InProgress',
  'Resolved',
  'Closed',
  'Cancelled',
] as const satisfies readonly ConversationState[];

/** Resolved, closed or cancelled: nothing more happens in it (SPEC §4 "final"). */
export const FINAL_STATES = [
  'Resolved',
  'Closed',
  'Cancelled',
] as const satisfies readonly ConversationState[];
/** Waiting for a counsellor: the queue's states (SPEC §4 "in queue" without InProgress-before-a-message). */
export const QUEUED_STATES = ['New', 'Responded', 'OnHold'] as const satisfies readonly ConversationState[];

type Stateful = Pick<Conversation, 'state'>;
type ConversationLike = Pick<Conversation, 'state' | 'lastAgentMessageDate' | 'lastContactMessageDate'>;

const hasAgentMessage = (c: Pick<Conversation, 'lastAgentMessageDate'>) => c.lastAgentMessageDate != null;

export const isFinalState = (state: string): boolean => (FINAL_STATES as readonly string[]).includes(state);
export const isQueuedState = (state: string): boolean => (QUEUED_STATES as readonly string[]).includes(state);

export function isFinal(c: Stateful | null | undefined): boolean {
  return !!c && isFinalState(c.state);
}

/** In queue: New, Responded or OnHold, or InProgress with no agent message yet. */
export function isInQueue(c: Omit<ConversationLike, 'lastContactMessageDate'> | null | undefined): boolean {
  if (!c) return false;
  if (isQueuedState(c.state)) return true;
  return c.state === 'InProgress' && !hasAgentMessage(c);
}

/** Active: InProgress with an agent message already sent. */
export function isActive(c: Omit<ConversationLike, 'lastContactMessageDate'> | null | undefined): boolean {
  return !!c && c.state === 'InProgress' && hasAgentMessage(c);
}

export function isResolvedOrClosed(c: Stateful | null | undefined): boolean {
  return !!c && (c.state === 'Resolved' || c.state === 'Closed');
}

export function isCancelled(c: Stateful | null | undefined): boolean {
  return !!c && c.state === 'Cancelled';
}

/** Ended: resolved, closed or cancelled (the chat history can be shown). */
export const isEnded = isFinal;

/** Group, InProgress and no agent (leader) message yet. */
export function isGroupSoonStarting(
  c: Omit<ConversationLike, 'lastContactMessageDate'> | null | undefined,
  isGroup = true,
): boolean {
  return !!c && isGroup && c.state === 'InProgress' && !hasAgentMessage(c);
}

/** While in queue and the contact has not written a message yet. */
export function allowPreSubmit(c: ConversationLike | null | undefined): boolean {
  return !!c && isInQueue(c) && c.lastContactMessageDate == null;
}
