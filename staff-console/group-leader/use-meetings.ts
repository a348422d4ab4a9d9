import { HUB_EVENTS } from '../../contract/hub.ts';
import { useHubEvent, useHubReconnected } from '../api/staff-hub.ts';
import type { Meeting, ValueList } from './types.ts';
import { useStaffGet } from '../api/use-staff-get.ts';

/**
 * The leader's meetings, kept live: meeting events reach every series member's account channel,
 * the leader's too, so no subscription is needed.
 */
export function useMeetings() {
  const meetings = useStaffGet<ValueList<Meeting>>('/meetings');
  useHubEvent(HUB_EVENTS.meetingCreated, meetings.reload);
  useHubEvent(HUB_EVENTS.meetingUpdated, meetings.reload);
  useHubEvent(HUB_EVENTS.meetingDeleted, meetings.reload);
  useHubReconnected(meetings.reload);
  return meetings;
}
