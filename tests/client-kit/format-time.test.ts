import { describe, expect, it } from 'vitest';
import {
  formatCalendarDate,
  formatClockTime,
  formatClockTimeTodayElseDate,
  formatDateAndClockTime,
  formatDateTimeLocalInput,
  isOnDayOf,
} from '../../client-kit/time/format-time.ts';

// Local times, so the expectations hold in any time zone the tests run in.
const moment = new Date(2025, 2, 4, 9, 5);
const iso = moment.toISOString();

describe('time formats', () => {
  it('names each format the apps show', () => {
    expect(formatClockTime(iso)).toBe('09:05');
    expect(formatCalendarDate(iso)).toBe('2025-03-04');
    expect(formatDateAndClockTime(moment)).toBe('2025-03-04 09:05');
    expect(formatDateTimeLocalInput(moment)).toBe('2025-03-04T09:05');
  });

  it('shows only the clock time for a moment of today, the day too otherwise', () => {
    expect(formatClockTimeTodayElseDate(iso, new Date(2025, 2, 4, 23, 59))).toBe('09:05');
    expect(formatClockTimeTodayElseDate(iso, new Date(2025, 2, 5, 0, 1))).toBe('2025-03-04 09:05');
    expect(isOnDayOf(iso, new Date(2025, 2, 4))).toBe(true);
  });

  it('gives an empty text for a value that is no date', () => {
    expect(formatClockTime('inte ett datum')).toBe('');
    expect(formatClockTimeTodayElseDate('')).toBe('');
    expect(isOnDayOf('')).toBe(false);
  });
});
