import { describe, expect, it } from 'vitest';
import { repeat } from '../../worker/clock.ts';
import { ManualClock } from './helpers.ts';

describe("the worker's repeating timer", () => {
  it('runs every interval, at once only when asked, and never again once stopped', () => {
    const clock = new ManualClock(0);
    const runs: number[] = [];
    const stop = repeat(clock, 1_000, async () => runs.push(clock.now()), { now: true });
    expect(runs).toEqual([0]);
    clock.advance(3_000);
    expect(runs).toEqual([0, 1_000, 2_000, 3_000]);
    stop();
    expect(clock.pending()).toBe(0);
    clock.advance(5_000);
    expect(runs).toEqual([0, 1_000, 2_000, 3_000]);
  });

  it('waits for the first interval by default and keeps running after a failing run', async () => {
    const clock = new ManualClock(0);
    let calls = 0;
    const stop = repeat(clock, 500, async () => {
      calls += 1;
      throw new Error('offline');
    });
    expect(calls).toBe(0);
    clock.advance(1_500);
    // Let the rejected runs settle: an unhandled rejection would fail the test run.
    await Promise.resolve();
    expect(calls).toBe(3);
    expect(clock.pending()).toBe(1);
    stop();
  });
});
