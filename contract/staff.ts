import type { ConnectionState } from './connection-state.ts';
import type { Conversation, ConversationMessageWire } from './conversations.ts';
import type { MeetingMessage } from './meetings.ts';

/**
 * The staff API's wire shapes (`/portal/staff`, ARCHITECTURE.md): what the reference server answers
 * and the staff console reads. Lists are `{ value }` as everywhere in SPEC §7.
 */

/**
 * A queue item of GET /portal/staff/queue (and /conversations): the conversation, the properties sent
 * with it (child-app variants only, SPEC §7), and the SPEC §3 author label of the child's messages
 * ('Tjej, 14 år'), from the child's profile, so it is there whichever variant the child wrote from.
 */
export type QueueItem = Conversation & { properties: Record<string, string>; authorLabel: string };

/** GET /portal/staff/series: a series the group leader leads. */
export interface LedSeries {
  id: number;
  subject: string;
  groupName: string;
  participantsCount: number;
}

/** A participant of a series with presence in the chosen meeting's group chat (SPEC §4 Connection state). */
export interface SeriesParticipant {
  accountId: number;
  contactId: number;
  name: string;
  presence: ConnectionState;
  connectedDate: string | null;
  lastPingedDate: string | null;
  disconnectedDate: string | null;
}

/** GET /portal/staff/series/{id}/participants */
export interface ParticipantList {
  value: SeriesParticipant[];
  meetingId: number | null;
  conversationId: number | null;
}

/** POST /portal/staff/series/{id}/participants: the personal code is answered this once. */
export interface CreatedParticipant {
  accountId: number;
  contactId: number;
  name: string;
  personalCode: string;
}

/** GET /portal/staff/meetings/{id}/private-messages: each with its sender's name. */
export type PrivateMessage = MeetingMessage & { senderName: string };

/** GET /portal/staff/meetings/{id}/messages: the group chat, empty before the start. */
export interface GroupChatMessages {
  value: ConversationMessageWire[];
  conversationId: number | null;
}

/** GET /portal/staff/audit: one staff action, never its content. */
export interface AuditEntry {
  id: number;
  accountId: number;
  action: string;
  entityType: string | null;
  entityId: number | null;
  status: number;
  createdDate: string;
}
