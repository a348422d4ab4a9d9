import type { Meeting } from '../../contract/meetings.ts';
import { isMeetingInProgress, isMeetingNotStarted, isMeetingOver } from '../../contract/meeting-state.ts';

export interface MeetingSections {
  inProgress: Meeting[];
  upcoming: Meeting[];
  finished: Meeting[];
}

const byStart = (a: Meeting, b: Meeting) => a.startDate.localeCompare(b.startDate);
const byEndDesc = (a: Meeting, b: Meeting) => b.endDate.localeCompare(a.endDate);

/** The three sections of SPEC §2 Meeting list; a cancelled meeting counts as finished for the leader. */
export function meetingSections(meetings: readonly Meeting[]): MeetingSections {
  return {
    inProgress: meetings.filter(isMeetingInProgress).sort(byStart),
    upcoming: meetings.filter(isMeetingNotStarted).sort(byStart),
    finished: meetings.filter(isMeetingOver).sort(byEndDesc),
  };
}
