import { format, isSameDay } from 'date-fns';
import type { Meeting } from '../../contract/meetings.ts';

/** SPEC §3 Meeting derivations. */
type MeetingLike = Pick<Meeting, 'id' | 'state' | 'startDate' | 'endDate'>;

export function meetingIsToday(meeting: Pick<Meeting, 'startDate'>, now: Date = new Date()): boolean {
  return isSameDay(new Date(meeting.startDate), now);
}

export const isNotStarted = (m: Pick<Meeting, 'state'>) => m.state === 'NotStarted';
export const isInProgress = (m: Pick<Meeting, 'state'>) => m.state === 'InProgress';
export const isCompleted = (m: Pick<Meeting, 'state'>) => m.state === 'Completed';
export const isCancelled = (m: Pick<Meeting, 'state'>) => m.state === 'Cancelled';

/** Keeps the first meeting of each id (SPEC §2: duplicates by id removed). */
export function uniqueById<T extends { id: number }>(meetings: readonly T[]): T[] {
  const seen = new Set<number>();
  return meetings.filter((m) => (seen.has(m.id) ? false : (seen.add(m.id), true)));
}

export interface MeetingSections<T> {
  inProgress: T[];
  upcoming: T[];
  finished: T[];
}

const time = (iso: string) => new Date(iso).getTime();

/** In progress and upcoming by start ascending; finished (completed or cancelled) by end descending. */
export function meetingSections<T extends MeetingLike>(meetings: readonly T[]): MeetingSections<T> {
  const unique = uniqueById(meetings);
  const byStart = (a: T, b: T) => time(a.startDate) - time(b.startDate);
  return {
    inProgress: unique.filter(isInProgress).sort(byStart),
    upcoming: unique.filter(isNotStarted).sort(byStart),
    finished: unique
      .filter((m) => isCompleted(m) || isCancelled(m))
      .sort((a, b) => time(b.endDate) - time(a.endDate)),
  };
}

/** The card's time line of SPEC §2 Meeting card. */
export function meetingTimeLine(meeting: MeetingLike, now: Date = new Date()): string {
  const start = new Date(meeting.startDate);
  if (isInProgress(meeting)) return `Mötestid: ${format(start, 'HH:mm')}`;
  if (isNotStarted(meeting)) {
    return meetingIsToday(meeting, now)
      ? `Mötestid: Idag, kl ${format(start, 'HH:mm')}`
      : `Mötestid: ${format(start, 'yyyy-MM-dd HH:mm')}`;
  }
  return `Avslutad: ${format(new Date(meeting.endDate), 'yyyy-MM-dd HH:mm')}`;
}

export type MeetingBadge = 'Pågående' | 'Kommande' | 'Avslutad';

export function meetingBadge(meeting: Pick<Meeting, 'state'>): MeetingBadge {
  if (isInProgress(meeting)) return 'Pågående';
  if (isNotStarted(meeting)) return 'Kommande';
  return 'Avslutad';
}

export type MeetingButton = 'Gå med' | 'Se historik' | 'Mer information';

export function meetingButton(meeting: Pick<Meeting, 'state'>): MeetingButton {
  if (isInProgress(meeting)) return 'Gå med';
  if (isCompleted(meeting) || isCancelled(meeting)) return 'Se historik';
  return 'Mer information';
}

export function meetingStartTime(meeting: Pick<Meeting, 'startDate'>): string {
  return `Starttid: ${format(new Date(meeting.startDate), 'HH:mm')}`;
}
