import type { HUB_EVENTS } from '../../contract/hub.ts';
import { entityKey } from '../../contract/hub.ts';
import type { AppContext } from '../context.ts';

type MeetingEvent =
  typeof HUB_EVENTS.meetingCreated | typeof HUB_EVENTS.meetingUpdated | typeof HUB_EVENTS.meetingDeleted;

/**
 * Meeting events reach every member of the series on their account channel (a meeting list sees a
 * new meeting without subscribing to it) and the subscribers of the meeting itself.
 */
export async function publishMeetingEvent(
  ctx: AppContext,
  event: MeetingEvent,
  meeting: { id: number; series_id: number },
) {
  const members = await ctx.db
    .selectFrom('series_memberships')
    .select('account_id')
    .where('series_id', '=', meeting.series_id)
    .execute();
  const key = entityKey('Meeting', meeting.id);
  const data = { id: meeting.id, meetingId: meeting.id };
  await Promise.all([
    ctx.hub.publishToEntity(key, event, data),
    ...members.map((m) => ctx.hub.publishToAccount(m.account_id, event, data, key)),
  ]);
}
