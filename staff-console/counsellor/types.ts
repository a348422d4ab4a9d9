import type { Conversation } from '../../contract/conversations.ts';

/** A queue item of GET /portal/staff/queue: the conversation plus the child's properties. */
export type QueueItem = Conversation & { properties: Record<string, string> };

export const isFinal = (c: Pick<Conversation, 'state'>) =>
  c.state === 'Resolved' || c.state === 'Closed' || c.state === 'Cancelled';
