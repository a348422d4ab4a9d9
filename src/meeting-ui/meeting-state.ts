import {
  formatClockTime,
  formatClockTimeTodayElseDate,
  formatDateAndClockTime,
  isOnDayOf,
} from '../../client-kit/time/format-time.ts';
import type { Meeting } from '../../contract/meetings.ts';

/** SPEC §3 Meeting derivations. */
type MeetingLike = Pick<Meeting, 'id' | 'state' | 'startDate' | 'endDate'>;

export function meetingIsToday(meeting: Pick<Meeting, 'startDate'>, now: Date = new Date()): boolean {
  return isOnDayOf(meeting.startDate, now);
}

import {
  isMeetingCancelled,
  isMeetingCompleted,
  isMeetingInProgress,
  isMeetingNotStarted,
} from '../../contract/meeting-state.ts';

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
    inProgress: unique.filter(isMeetingInProgress).sort(byStart),
    upcoming: unique.filter(isMeetingNotStarted).sort(byStart),
    finished: unique
      .filter((m) => isMeetingCompleted(m) || isMeetingCancelled(m))
      .sort((a, b) => time(b.endDate) - time(a.endDate)),
  };
}

/** The card's time line of SPEC §2 Meeting card. */
export function meetingTimeLine(meeting: MeetingLike, now: Date = new Date()): string {
  const start = meeting.startDate;
  if (isMeetingInProgress(meeting)) return `Mötestid: ${formatClockTime(start)}`;
  if (isMeetingNotStarted(meeting)) {
    return meetingIsToday(meeting, now)
      ? `Mötestid: Idag, kl ${formatClockTime(start)}`
      : `Mötestid: ${formatDateAndClockTime(start)}`;
  }
  // A cancelled meeting never took place: it is shown by its own state and its planned start, not
  // as 'Avslutad' at an end that may lie days ahead (SPEC gives no text; 'Inställd' is ours).
  if (isMeetingCancelled(meeting)) return `${CANCELLED}: ${formatDateAndClockTime(start)}`;
  return `Avslutad: ${formatDateAndClockTime(meeting.endDate)}`;
}

/** Ours (docs/decisions.md): the word for a cancelled meeting. */
export const CANCELLED = 'Inställd';

export type MeetingBadge = 'Pågående' | 'Kommande' | 'Avslutad' | typeof CANCELLED;

export function meetingBadge(meeting: Pick<Meeting, 'state'>): MeetingBadge {
  if (isMeetingInProgress(meeting)) return 'Pågående';
  if (isMeetingNotStarted(meeting)) return 'Kommande';
  if (isMeetingCancelled(meeting)) return CANCELLED;
  return 'Avslutad';
}

export type MeetingButton = 'Gå med' | 'Se historik' | 'Mer information';

export function meetingButton(meeting: Pick<Meeting, 'state'>): MeetingButton {
  if (isMeetingInProgress(meeting)) return 'Gå med';
  if (isMeetingCompleted(meeting) || isMeetingCancelled(meeting)) return 'Se historik';
  return 'Mer information';
}

/**
 * The detail card's 'Starttid: HH:mm' (SPEC §2) for a meeting of today; another day's meeting also
 * shows its day ('yyyy-MM-dd HH:mm', as the upcoming card does), and a meeting without a readable
 * start shows no line at all (null) rather than a label without a value.
 */
export function meetingStartTime(meeting: Pick<Meeting, 'startDate'>, now: Date = new Date()): string | null {
  const when = formatClockTimeTodayElseDate(meeting.startDate, now);
  return when ? `Starttid: ${when}` : null;
}
