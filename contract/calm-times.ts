/**
 * 'När är det lugnast?' (docs/decisions.md "When it is calm"): the typical wait of a channel's chats
 * by weekday and hour in Stockholm, drawn from the last four weeks' waits (durations only: no child,
 * no chat is named). The server draws it (server/conversations/calm-times.ts), the worker keeps the
 * last copy for offline reading, and the queued chat's window shows it.
 */

/** How far back the waits reach. */
export const CALM_TIMES_WEEKS = 4;
/** Fewer waits than this in an hour of the week: 'För lite underlag' (nothing said of that hour). */
export const CALM_TIMES_MIN_SAMPLES = 3;
/** Monday first, as a Swedish week. */
export const WEEKDAYS = 7;
export const HOURS = 24;

/** A weekday (0 = Monday ... 6 = Sunday) and an hour of the day (0-23), Stockholm's wall clock. */
export interface WeekHour {
  weekday: number;
  hour: number;
}

export interface CalmTimes {
  channel: number | null;
  /**
   * The typical (median) wait in seconds, `waits[weekday][hour]`: 7 rows of 24; null where the
   * hour had fewer than CALM_TIMES_MIN_SAMPLES waits.
   */
  waits: Array<Array<number | null>>;
  /** When the server drew it (ISO): the offline copy says how old it is. */
  drawnAt: string;
}
