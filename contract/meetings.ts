/** SPEC §3 Meeting, Meeting message, Meeting appendix; §7 Meetings. */
export type MeetingState = 'NotStarted' | 'InProgress' | 'Completed' | 'Cancelled';
export type SessionState = 'None' | MeetingState;
export type MeetingType = 'Meeting' | 'Conversation' | 'Series';

export interface Meeting {
  id: number;
  meetingId: number;
  isActive: boolean;
  appendicesCount: number;
  duration: number;
  startDate: string;
  endDate: string;
  participantsCount: number;
  subject: string;
  messagesCount: number;
  /** The group conversation, once the group chat was started. */
  conversation: { id: number } | null;
  series: { id: number; subject: string; groupName: string; groupInformation: string };
  state: MeetingState;
  sessionState: SessionState;
  meetingType: MeetingType;
  descriptionBodyContent: string;
  descriptionBodyContentSize: number;
  descriptionBodyContentType: string;
}

export const MESSAGE_TYPE = { Mail: 0, Message: 1 } as const;

export interface MeetingMessageFile {
  name: string;
  contentType: string;
  size: number;
}

export interface MeetingMessage {
  id: number;
  meetingId: number;
  subject: string;
  text: string;
  messageType: number;
  senderType: 'Participant' | 'Leader';
  createdDate: string;
  bodySize: number;
  bodyContent: string;
  bodyContentType: string;
  contactId: number;
  files: MeetingMessageFile[];
}

export interface MeetingAppendix {
  id: number;
  appendixId: number;
  name: string;
  meetingId: number;
  type: string;
  file: { name: string; contentType: string; size: number };
  isActive: boolean;
  orderIndex: number;
  createdBy: number;
}

export interface ValueList<T> {
  value: T[];
}
