import { format, isSameDay } from 'date-fns';

/**
 * Dates and times as the child app and the staff console show them (SPEC §2: 'HH:mm' for today,
 * 'yyyy-MM-dd HH:mm' otherwise), in the viewer's own time zone. One module, so each format has one
 * name that says what it means. A value that is no date gives '' rather than an exception.
 */

/** An ISO 8601 string as the API sends it, or a Date. */
export type DateInput = string | Date;

function toDate(value: DateInput): Date | null {
  const date = typeof value === 'string' ? new Date(value) : value;
  return Number.isNaN(date.getTime()) ? null : date;
}

function formatted(value: DateInput, pattern: string): string {
  const date = toDate(value);
  return date ? format(date, pattern) : '';
}

/** The clock time: '14:05'. */
export const formatClockTime = (value: DateInput): string => formatted(value, 'HH:mm');

/** The calendar day: '2025-03-14'. */
export const formatCalendarDate = (value: DateInput): string => formatted(value, 'yyyy-MM-dd');

/** The day and the clock time: '2025-03-14 14:05'. */
export const formatDateAndClockTime = (value: DateInput): string => formatted(value, 'yyyy-MM-dd HH:mm');

/** The value of an `<input type="datetime-local">` (to the minute): '2025-03-14T14:05'. */
export const formatDateTimeLocalInput = (value: DateInput): string => formatted(value, "yyyy-MM-dd'T'HH:mm");

/** Whether a moment falls on the same calendar day as `now` (the viewer's 'today'). */
export function isOnDayOf(value: DateInput, now: Date = new Date()): boolean {
  const date = toDate(value);
  return date !== null && isSameDay(date, now);
}

/** Only the clock time for a moment of today, else the day too: '14:05' or '2025-03-14 14:05'. */
export function formatClockTimeTodayElseDate(value: DateInput, now: Date = new Date()): string {
  return isOnDayOf(value, now) ? formatClockTime(value) : formatDateAndClockTime(value);
}
