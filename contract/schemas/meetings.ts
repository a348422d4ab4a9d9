import { Type } from '@sinclair/typebox';
import { PRIVATE_MESSAGE_MAX_LENGTH, SUBJECT_MAX_LENGTH } from '../limits.ts';
import { AnyId, Body, FilePart, Int, Query, Text } from './common.ts';

/** SPEC §7 Meetings: what a participant's calls read. */

/** GET .../meetings */
export const MeetingsQuery = Query({ meetingId: Type.Optional(AnyId) });
/** GET .../meeting */
export const MeetingQuery = Query({ meetingId: AnyId });
/** GET .../appendices */
export const AppendicesQuery = Query({ MeetingId: AnyId });
/** GET .../meetingmessages: the caller's own private messages (type 0 messages, 1 mail). */
export const MeetingMessagesQuery = Query({
  meetingId: AnyId,
  take: Type.Optional(Int(0, 1_000_000)),
  skip: Type.Optional(Int(0, 1_000_000)),
  type: Type.Optional(Int(0, 1)),
});
/** DELETE .../meetingmessage */
export const DeleteMeetingMessageQuery = Query({ meetingMessageId: AnyId });
/** GET {api}/meetingappendix */
export const MeetingAppendixQuery = Query({ MeetingId: AnyId, AppendixId: AnyId });
/** GET {api}/meetingmessagefile */
export const MeetingMessageFileQuery = Query({
  meetingId: AnyId,
  meetingMessageId: AnyId,
  fileName: Text(300),
});

/** POST .../meetingmessage: multipart fields; the file itself arrives as a Buffer. */
export const MeetingMessageBody = Body({
  Subject: Type.Optional(Text(SUBJECT_MAX_LENGTH)),
  Text: Type.Optional(Text(PRIVATE_MESSAGE_MAX_LENGTH)),
  MessageType: Type.Optional(Int(0, 1)),
  MeetingRuid: AnyId,
  DocumentName: Type.Optional(Text(300)),
  DocumentContentType: Type.Optional(Text(200)),
  DocumentContent: Type.Optional(FilePart),
});
