/** Wire shapes of the group leader's staff API: they live in contract/ (one definition for server and console). */
export type { Meeting, MeetingAppendix, ValueList } from '../../contract/meetings.ts';
export type { ConversationMessageWire } from '../../contract/conversations.ts';
export type {
  CreatedParticipant,
  GroupChatMessages as ChatMessages,
  LedSeries,
  ParticipantList,
  PrivateMessage,
  SeriesParticipant,
} from '../../contract/staff.ts';
