import { e2eDatabaseUrl } from '../../playwright.config.ts';
import { openDatabase } from '../../server/db/database.ts';
import { MEETING_STATE } from '../../contract/meeting-state.ts';

export interface MeetingContent {
  subject: string;
  descriptionHtml: string;
  groupInformationHtml: string;
}

/**
 * Gives the gruppstod server's running demo meeting and its group other content while `run` runs,
 * then puts the demo content back. No API writes these (they come from the organisation's own
 * system), so the test writes the server's database as that system would.
 */
export async function withMeetingContent(content: MeetingContent, run: () => Promise<void>) {
  const { db, close } = openDatabase(e2eDatabaseUrl('gruppstod'));
  try {
    const meeting = await db
      .selectFrom('meetings')
      .innerJoin('series', 'series.id', 'meetings.series_id')
      .select([
        'meetings.id',
        'meetings.subject',
        'meetings.description',
        'meetings.description_content_type',
      ])
      .select(['series.group_id'])
      .where('meetings.state', '=', MEETING_STATE.InProgress)
      .executeTakeFirstOrThrow();
    const group = await db
      .selectFrom('support_groups')
      .select('information_html')
      .where('id', '=', meeting.group_id)
      .executeTakeFirstOrThrow();
    const setMeeting = (subject: string, description: string, type: string) =>
      db
        .updateTable('meetings')
        .set({ subject, description, description_content_type: type })
        .where('id', '=', meeting.id)
        .execute();
    const setGroup = (html: string) =>
      db
        .updateTable('support_groups')
        .set({ information_html: html })
        .where('id', '=', meeting.group_id)
        .execute();
    await setMeeting(content.subject, content.descriptionHtml, 'text/html');
    await setGroup(content.groupInformationHtml);
    try {
      await run();
    } finally {
      await setMeeting(meeting.subject, meeting.description, meeting.description_content_type);
      await setGroup(group.information_html);
    }
  } finally {
    await close();
  }
}
