// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChatTimeLeft, chatMinutesLeft } from '../../client-kit/chat-limit/time-left.tsx';
import { CHILD_CHAT_TEXTS } from '../../src/one-to-one-chat/texts.ts';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const MINUTE = 60_000;
const START = Date.parse('2026-05-04T10:00:00.000Z');
const at = (msFromStart: number) => new Date(START + msFromStart).toISOString();

describe('the minutes left of a chat', () => {
  it('are whole minutes rounded up, in the last 10 minutes only', () => {
    const ends = at(45 * MINUTE);
    expect(chatMinutesLeft(null, START)).toBeNull();
    expect(chatMinutesLeft(ends, START)).toBeNull();
    expect(chatMinutesLeft(ends, START + 35 * MINUTE - 1)).toBeNull();
    expect(chatMinutesLeft(ends, START + 35 * MINUTE)).toBe(10);
    expect(chatMinutesLeft(ends, START + 40 * MINUTE + 1)).toBe(5);
    expect(chatMinutesLeft(ends, START + 44 * MINUTE + 59_999)).toBe(1);
    expect(chatMinutesLeft(ends, START + 45 * MINUTE)).toBeNull();
  });

  it('count down each minute on screen and are read out at 10, 5 and 1 minutes only', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: START + 30 * MINUTE + 50_000 });
    render(<ChatTimeLeft limitEndsAt={at(45 * MINUTE)} text={CHILD_CHAT_TEXTS.timeLeft} />);
    const shown = () => screen.queryByTestId('chat-time-left')?.textContent ?? null;
    const announced = () => screen.getByRole('status').textContent;
    expect(shown()).toBeNull();
    expect(announced()).toBe('');

    const seen: Array<[string | null, string | null]> = [];
    // Opened 50 s into a minute; time moves 5 s at a time (React draws after each step, as a browser
    // would), and the screen is read 5 s into each minute from 9:55 before the end: a view that
    // counted its minutes from when it opened would be a minute behind.
    for (let t = 30 * MINUTE + 55_000; t <= 45 * MINUTE + 5_000; t += 5_000) {
      await act(() => vi.advanceTimersByTimeAsync(5_000));
      if (t >= 35 * MINUTE && t % MINUTE === 5_000) seen.push([shown(), announced()]);
    }
    expect(seen).toEqual([
      ['10 minuter kvar', '10 minuter kvar'],
      ['9 minuter kvar', ''],
      ['8 minuter kvar', ''],
      ['7 minuter kvar', ''],
      ['6 minuter kvar', ''],
      ['5 minuter kvar', '5 minuter kvar'],
      ['4 minuter kvar', ''],
      ['3 minuter kvar', ''],
      ['2 minuter kvar', ''],
      ['1 minut kvar', '1 minut kvar'],
      [null, ''],
    ]);
  });
});
