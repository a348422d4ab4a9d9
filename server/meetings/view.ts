import type { Selectable } from 'kysely';
import type { Meeting, MeetingAppendix, MeetingMessage } from '../../contract/meetings.ts';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import type { Principal } from '../auth/principal.ts';
import { isStaff } from '../auth/principal.ts';
import { ApiError } from '../errors.ts';
import { visibleSeriesIds } from '../auth/entity-access.ts';

type MeetingRow = Selectable<Database['meetings']>;

/** 404 when the meeting does not exist, 403 when it is not in one of the user's series. */
export async function meetingForUser(db: Db, principal: Principal, meetingId: number): Promise<MeetingRow> {
  if (!Number.isInteger(meetingId)) throw new ApiError('bad_request');
  const meeting = await db.selectFrom('meetings').selectAll().where('id', '=', meetingId).executeTakeFirst();
  if (!meeting || meeting.deleted_date) throw new ApiError('not_found');
  const series = await visibleSeriesIds(db, principal.accountId);
  if (!series.includes(meeting.series_id)) throw new ApiError('forbidden');
  return meeting;
}

export async function toMeeting(db: Db, principal: Principal, m: MeetingRow): Promise<Meeting> {
  const [series, appendices, participants, messages] = await Promise.all([
    db
      .selectFrom('series')
      .innerJoin('support_groups', 'support_groups.id', 'series.group_id')
      .select(['series.id', 'series.subject', 'support_groups.name', 'support_groups.information_html'])
      .where('series.id', '=', m.series_id)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('appendices')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('meeting_id', '=', m.id)
      .where('is_active', '=', 1)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('series_memberships')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('series_id', '=', m.series_id)
      .where('role', '=', 'participant')
      .executeTakeFirstOrThrow(),
    ownMessagesQuery(db, principal, m.id)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    id: m.id,
    meetingId: m.id,
    isActive: m.is_active === 1,
    appendicesCount: Number(appendices.n),
    duration: m.duration,
    startDate: m.start_date,
    endDate: m.end_date,
    participantsCount: Number(participants.n),
    subject: m.subject,
    messagesCount: Number(messages.n),
    conversation: m.conversation_id === null ? null : { id: m.conversation_id },
    series: {
      id: series.id,
      subject: series.subject,
      groupName: series.name,
      groupInformation: series.information_html,
    },
    state: m.state as Meeting['state'],
    sessionState: m.session_state as Meeting['sessionState'],
    meetingType: m.meeting_type as Meeting['meetingType'],
    descriptionBodyContent: m.description,
    descriptionBodyContentSize: m.description.length,
    descriptionBodyContentType: m.description_content_type,
  };
}

/** A participant sees their own messages to the leaders; leaders see every message of the meeting. */
export function ownMessagesQuery(db: Db, principal: Principal, meetingId: number) {
  let q = db
    .selectFrom('meeting_messages')
    .where('meeting_id', '=', meetingId)
    .where('deleted_date', 'is', null);
  if (!isStaff(principal)) q = q.where('account_id', '=', principal.accountId);
  return q;
}

export async function toMeetingMessages(
  db: Db,
  rows: Array<Selectable<Database['meeting_messages']>>,
): Promise<MeetingMessage[]> {
  if (rows.length === 0) return [];
  const files = await db
    .selectFrom('meeting_message_files')
    .innerJoin('file_blobs', 'file_blobs.id', 'meeting_message_files.blob_id')
    .select([
      'meeting_message_files.meeting_message_id',
      'meeting_message_files.name',
      'meeting_message_files.content_type',
      'file_blobs.size',
    ])
    .where(
      'meeting_message_id',
      'in',
      rows.map((r) => r.id),
    )
    .execute();
  const contacts = await db
    .selectFrom('accounts')
    .select(['id', 'contact_id'])
    .where('id', 'in', [...new Set(rows.map((r) => r.account_id))])
    .execute();
  return rows.map((r) => ({
    id: r.id,
    meetingId: r.meeting_id,
    subject: r.subject,
    text: r.text,
    messageType: r.message_type,
    senderType: r.sender_type as MeetingMessage['senderType'],
    createdDate: r.created_date,
    bodySize: r.text.length,
    bodyContent: r.text,
    bodyContentType: 'text/plain',
    contactId: contacts.find((c) => c.id === r.account_id)?.contact_id ?? 0,
    files: files
      .filter((f) => f.meeting_message_id === r.id)
      .map((f) => ({ name: f.name, contentType: f.content_type, size: Number(f.size) })),
  }));
}

export function toAppendix(row: Selectable<Database['appendices']> & { size: number }): MeetingAppendix {
  return {
    id: row.id,
    appendixId: row.id,
    name: row.name,
    meetingId: row.meeting_id,
    type: row.type,
    file: { name: row.name, contentType: row.content_type, size: Number(row.size) },
    isActive: row.is_active === 1,
    orderIndex: row.order_index,
    createdBy: row.created_by,
  };
}

/** A meeting's active appendices in their order (SPEC §7 appendices), for participants and leaders. */
export async function listAppendices(db: Db, meetingId: number): Promise<MeetingAppendix[]> {
  const rows = await db
    .selectFrom('appendices')
    .innerJoin('file_blobs', 'file_blobs.id', 'appendices.blob_id')
    .selectAll('appendices')
    .select('file_blobs.size')
    .where('meeting_id', '=', meetingId)
    .where('is_active', '=', 1)
    .orderBy('order_index')
    .execute();
  return rows.map(toAppendix);
}
