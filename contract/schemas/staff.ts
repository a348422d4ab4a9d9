import { Type, type Static } from '@sinclair/typebox';
import {
  COUNSELLOR_NOTE_MAX_LENGTH,
  GROUP_CHAT_MAX_LENGTH,
  MEETING_DESCRIPTION_MAX_LENGTH,
  MESSAGE_MAX_LENGTH,
  SUBJECT_MAX_LENGTH,
} from '../limits.ts';
import { AnyId, Body, DateText, FilePart, Id, Int, Params, Query, StringEnum, Text } from './common.ts';

/** The staff API (`/portal/staff`, ARCHITECTURE.md): what each call reads. */

/** POST /conversations/{id}/messages: a counsellor's answer. */
export const StaffMessageBody = Body({ content: Text(MESSAGE_MAX_LENGTH) });
/** GET /feedback: the last `weeks` ISO weeks of 'Hur kändes chatten?' (12 unless asked). */
export const FeedbackQuery = Query({ weeks: Type.Optional(Int(1, 104)) });
export type FeedbackQuery = Static<typeof FeedbackQuery>;
/** POST /conversations/{id}/notes: a counsellor's note for the next counsellor. */
export const CounsellorNoteBody = Body({
  content: Type.String({ minLength: 1, maxLength: COUNSELLOR_NOTE_MAX_LENGTH }),
});
export type StaffMessageBody = Static<typeof StaffMessageBody>;
/** POST /meetings/{id}/messages: a group leader's message in the group chat. */
export const GroupChatMessageBody = Body({ content: Text(GROUP_CHAT_MAX_LENGTH) });

const meetingFields = {
  seriesId: Id,
  subject: Text(SUBJECT_MAX_LENGTH),
  description: Type.Optional(Text(MEETING_DESCRIPTION_MAX_LENGTH)),
  startDate: DateText,
  duration: Int(5, 600),
};
/** POST /meetings */
export const NewMeetingBody = Body(meetingFields);
/** PUT /meetings/{id}: the fields that change. */
export const MeetingChangesBody = Type.Partial(NewMeetingBody);
export type MeetingChangesBody = Static<typeof MeetingChangesBody>;

/** POST /meetings/{id}/appendices: multipart `name` and `file`. */
export const AppendixBody = Body({ name: Type.Optional(Text(300)), file: FilePart });
export type AppendixBody = Static<typeof AppendixBody>;

/** GET /meetings/{id}/files/{messageId}/{fileName} */
export const MeetingFileParams = Params({ id: Id, messageId: Id, fileName: Text(300) });

/** GET /series/{id}/participants: presence in this meeting's chat, else the series' running one. */
export const ParticipantsQuery = Query({ meetingId: Type.Optional(AnyId) });
/** POST /series/{id}/participants */
export const NewParticipantBody = Body({ name: Text(200) });

/** GET /audit (administrators) */
export const AuditQuery = Query({
  accountId: Type.Optional(Id),
  entityType: Type.Optional(Text(40)),
  entityId: Type.Optional(Id),
  from: Type.Optional(DateText),
  to: Type.Optional(DateText),
  take: Type.Optional(Int(1, 1000)),
  skip: Type.Optional(Int(0, 1_000_000)),
});

export const STAFF_ROLES = ['counsellor', 'group_leader', 'admin'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
/** PUT /accounts/{id}/roles */
export const StaffRolesBody = Body({
  roles: Type.Array(StringEnum(STAFF_ROLES), { minItems: 1, maxItems: 3, uniqueItems: true }),
});
