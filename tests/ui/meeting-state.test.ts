import { describe, expect, it } from 'vitest';
import {
  isMeetingCancelled,
  isMeetingCompleted,
  isMeetingInProgress,
  isMeetingNotStarted,
} from '../../contract/meeting-state.ts';
import {
  meetingBadge,
  meetingButton,
  meetingIsToday,
  meetingSections,
  meetingStartTime,
  meetingTimeLine,
  uniqueById,
} from '../../src/meeting-ui/meeting-state.ts';
import type { MeetingState } from '../../contract/meetings.ts';

const local = (y: number, mo: number, d: number, h: number, mi: number) =>
  new Date(y, mo - 1, d, h, mi).toISOString();

const m = (id: number, state: MeetingState, startDate: string, endDate = startDate) => ({
  id,
  state,
  startDate,
  endDate,
});

const now = new Date(2026, 10, 22, 12, 0);

describe('meeting derivations', () => {
  it('knows the state', () => {
    expect(isMeetingNotStarted({ state: 'NotStarted' })).toBe(true);
    expect(isMeetingInProgress({ state: 'InProgress' })).toBe(true);
    expect(isMeetingCompleted({ state: 'Completed' })).toBe(true);
    expect(isMeetingCancelled({ state: 'Cancelled' })).toBe(true);
    expect(isMeetingInProgress({ state: 'NotStarted' })).toBe(false);
  });

  it('knows whether a meeting is today', () => {
    expect(meetingIsToday({ startDate: local(2026, 11, 22, 18, 0) }, now)).toBe(true);
    expect(meetingIsToday({ startDate: local(2026, 11, 23, 0, 5) }, now)).toBe(false);
  });
});

describe('meeting sections', () => {
  it('sorts in progress and upcoming by start ascending, finished by end descending', () => {
    const sections = meetingSections([
      m(1, 'NotStarted', local(2026, 11, 25, 10, 0)),
      m(2, 'NotStarted', local(2026, 11, 23, 10, 0)),
      m(3, 'InProgress', local(2026, 11, 22, 11, 50)),
      m(4, 'Completed', local(2026, 11, 1, 10, 0), local(2026, 11, 1, 11, 0)),
      m(5, 'Completed', local(2026, 11, 8, 10, 0), local(2026, 11, 8, 11, 0)),
      m(6, 'Cancelled', local(2026, 11, 3, 10, 0), local(2026, 11, 3, 11, 0)),
    ]);
    expect(sections.inProgress.map((x) => x.id)).toEqual([3]);
    expect(sections.upcoming.map((x) => x.id)).toEqual([2, 1]);
    expect(sections.finished.map((x) => x.id)).toEqual([5, 6, 4]);
  });

  it('removes duplicates by id', () => {
    const a = m(1, 'NotStarted', local(2026, 11, 25, 10, 0));
    expect(uniqueById([a, { ...a }, m(2, 'NotStarted', a.startDate)]).map((x) => x.id)).toEqual([1, 2]);
    expect(meetingSections([a, { ...a }]).upcoming).toHaveLength(1);
  });
});

describe('time lines, badges and buttons', () => {
  it('formats the time line per state', () => {
    expect(meetingTimeLine(m(1, 'InProgress', local(2026, 11, 22, 11, 50)), now)).toBe('Mötestid: 11:50');
    expect(meetingTimeLine(m(1, 'NotStarted', local(2026, 11, 22, 14, 5)), now)).toBe(
      'Mötestid: Idag, kl 14:05',
    );
    expect(meetingTimeLine(m(1, 'NotStarted', local(2026, 11, 25, 9, 0)), now)).toBe(
      'Mötestid: 2026-11-25 09:00',
    );
    expect(
      meetingTimeLine(m(1, 'Completed', local(2026, 11, 1, 10, 0), local(2026, 11, 1, 11, 30)), now),
    ).toBe('Avslutad: 2026-11-01 11:30');
    expect(meetingStartTime({ startDate: local(2026, 11, 22, 8, 7) }, now)).toBe('Starttid: 08:07');
  });

  it('shows a cancelled meeting as Inställd at its planned start, not Avslutad at its end', () => {
    // Cancelled five days ahead: its end lies in the future too.
    const cancelled = m(1, 'Cancelled', local(2026, 11, 27, 18, 0), local(2026, 11, 27, 19, 0));
    expect(meetingTimeLine(cancelled, now)).toBe('Inställd: 2026-11-27 18:00');
    expect(meetingBadge(cancelled)).toBe('Inställd');
    expect(meetingButton(cancelled)).toBe('Se historik');
  });

  it('gives Starttid a day when the meeting is not today, and no line without a start', () => {
    expect(meetingStartTime({ startDate: local(2026, 11, 27, 18, 0) }, now)).toBe(
      'Starttid: 2026-11-27 18:00',
    );
    expect(meetingStartTime({ startDate: '' }, now)).toBeNull();
    expect(meetingStartTime({ startDate: 'not a date' }, now)).toBeNull();
  });

  it('picks badge and button', () => {
    expect(meetingBadge({ state: 'InProgress' })).toBe('Pågående');
    expect(meetingBadge({ state: 'NotStarted' })).toBe('Kommande');
    expect(meetingBadge({ state: 'Completed' })).toBe('Avslutad');
    expect(meetingButton({ state: 'InProgress' })).toBe('Gå med');
    expect(meetingButton({ state: 'Completed' })).toBe('Se historik');
    expect(meetingButton({ state: 'Cancelled' })).toBe('Se historik');
    expect(meetingButton({ state: 'NotStarted' })).toBe('Mer information');
  });
});
