import type { Meeting, MeetingState } from './meetings.ts';

/** SPEC §3 Meeting state and its derived checks, once for the server, the child app and the console. */
export const MEETING_STATE = {
  NotStarted: 'NotStarted',
  InProgress: 'InProgress',
  Completed: 'Completed',
  Cancelled: 'Cancelled',
} as const satisfies { [S in MeetingState]: S };

type Stateful = Pick<Meeting, 'state'>;

export const isMeetingNotStarted = (m: Stateful) => m.state === MEETING_STATE.NotStarted;
export const isMeetingInProgress = (m: Stateful) => m.state === MEETING_STATE.InProgress;
export const isMeetingCompleted = (m: Stateful) => m.state === MEETING_STATE.Completed;
export const isMeetingCancelled = (m: Stateful) => m.state === MEETING_STATE.Cancelled;
/** Completed or cancelled: it shows under 'Avslutade träffar' and takes no more messages. */
export const isMeetingOver = (m: Stateful) => isMeetingCompleted(m) || isMeetingCancelled(m);
