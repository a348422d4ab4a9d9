import type { Meeting, MeetingAppendix, MeetingMessage } from '../../contract/meetings.ts';
import type { ConversationMessageWire } from '../../contract/conversations.ts';

/** Wire shapes of the group leader's staff API (server/staff/group-leader-*.ts). */
export type { Meeting, MeetingAppendix, ConversationMessageWire };

export interface LedSeries {
  id: number;
  subject: string;
  groupName: string;
  participantsCount: number;
}

export type Presence = 'Connected' | 'Away' | 'Disconnected';

export interface SeriesParticipant {
  accountId: number;
  contactId: number;
  name: string;
  presence: Presence;
}

export interface ParticipantList {
  value: SeriesParticipant[];
  meetingId: number | null;
  conversationId: number | null;
}

export interface CreatedParticipant {
  accountId: number;
  name: string;
  personalCode: string;
}

export type PrivateMessage = MeetingMessage & { senderName: string };

export interface ChatMessages {
  value: ConversationMessageWire[];
  conversationId: number | null;
}

export interface ValueList<T> {
  value: T[];
}
