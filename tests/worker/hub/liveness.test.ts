import { describe, expect, it } from 'vitest';
import type { HubState } from '../../../worker/base/session.ts';
import {
  DETECTION_PROBES,
  DOWN_PROBE_INTERVAL_MS,
  LIVE_DEAD_AFTER_MS,
  LIVE_PING_INTERVAL_MS,
  Liveness,
} from '../../../worker/hub/liveness.ts';
import { ManualClock } from '../helpers.ts';

/**
 * The liveness check's rules on a clock the test moves: what it sends while the line matters and
 * while it does not, how soon a dead line is dropped, and how the line's return is found. The real
 * line (a silent loss behind the fault proxy) is tried in tests/worker/silent-loss.test.ts.
 */
function setUp({ matters = true, answers = true, serverAnswers = true } = {}) {
  const clock = new ManualClock(1_000_000);
  const line = { answers, serverAnswers, matters };
  const calls = {
    pings: 0,
    probes: 0,
    restarts: [] as boolean[],
    recovered: 0,
    abandoned: [] as number[],
    lost: [] as number[],
  };
  const hub = {
    state: 'Connected' as HubState,
    startedAt: null as number | null,
    ping: (timeoutMs: number) => {
      calls.pings++;
      if (line.answers) {
        // The answer comes on the next turn, as a real one would.
        queueMicrotask(() => liveness.heard());
        return Promise.resolve(true);
      }
      return new Promise<boolean>((resolve) => clock.setTimeout(() => resolve(false), timeoutMs));
    },
    reconnectNow: ({ dead }: { dead: boolean }) => {
      calls.restarts.push(dead);
      hub.state = 'Connecting';
      hub.startedAt = clock.now();
      return Promise.resolve();
    },
  };
  const liveness = new Liveness({
    clock,
    hub,
    matters: () => line.matters,
    lineLost: (at: number) => calls.lost.push(at),
    serverAnswers: () => {
      calls.probes++;
      return Promise.resolve(line.serverAnswers);
    },
    recovered: (sentBefore: number) => {
      calls.recovered++;
      calls.abandoned.push(sentBefore);
    },
  });
  /** Moves the clock in steps, letting the promises of each tick settle. */
  const pass = async (ms: number, step = 100) => {
    for (let gone = 0; gone < ms; gone += step) {
      clock.advance(step);
      for (let i = 0; i < 5; i++) await Promise.resolve();
    }
  };
  return { clock, line, calls, hub, liveness, pass };
}

describe('the liveness check', () => {
  it('sends nothing while nothing waits on the line, and a ping a second while it does', async () => {
    const { calls, line, liveness, pass } = setUp({ matters: false });
    liveness.start();
    await pass(60_000);
    expect(calls.pings).toBe(0);
    expect(calls.probes).toBe(0);

    line.matters = true;
    liveness.wake();
    await pass(60_000);
    expect(calls.pings).toBeGreaterThanOrEqual(60_000 / LIVE_PING_INTERVAL_MS - 1);
    expect(calls.pings).toBeLessThanOrEqual(60_000 / LIVE_PING_INTERVAL_MS + 1);
    expect(calls.restarts).toEqual([]);

    // The chat leaves the screen: the pings stop with the next tick.
    line.matters = false;
    await pass(1000);
    const before = calls.pings;
    await pass(60_000);
    expect(calls.pings).toBe(before);
  });

  it('drops a connection whose pings go unanswered within 2.5 to 3.5 s of the line dying', async () => {
    const { calls, clock, line, liveness, pass } = setUp();
    liveness.start();
    await pass(5000);
    expect(calls.restarts).toEqual([]);
    const died = clock.now();
    line.answers = false;
    let droppedAt: number | null = null;
    for (let i = 0; i < 60 && droppedAt === null; i++) {
      await pass(100);
      if (calls.restarts.length > 0) droppedAt = clock.now();
    }
    expect(calls.restarts).toEqual([true]);
    // What was under way is given up with it, and the server is asked at once whether it answers,
    // by as many probes as the browser keeps connections.
    expect(calls.lost).toEqual([droppedAt]);
    expect(calls.probes).toBe(DETECTION_PROBES);
    expect(droppedAt! - died).toBeGreaterThanOrEqual(LIVE_DEAD_AFTER_MS);
    expect(droppedAt! - died).toBeLessThanOrEqual(LIVE_DEAD_AFTER_MS + LIVE_PING_INTERVAL_MS);
  });

  it('asks the server every half second while the line is down, and on its first answer restarts and catches up', async () => {
    const { calls, clock, hub, line, liveness, pass } = setUp({ serverAnswers: false });
    // Down for a while: a start was made into the dead line and hangs.
    hub.state = 'Connecting';
    hub.startedAt = clock.now();
    liveness.start();
    await pass(10_000);
    expect(calls.probes).toBeGreaterThanOrEqual(10_000 / DOWN_PROBE_INTERVAL_MS - 1);
    expect(calls.restarts).toEqual([]);
    expect(calls.recovered).toBe(0);

    line.serverAnswers = true;
    const back = clock.now();
    await pass(DOWN_PROBE_INTERVAL_MS);
    // The hung start is dropped for a new one, what was sent into the dead line is given up, and
    // what was missed is fetched, once.
    expect(calls.restarts).toEqual([false]);
    expect(calls.recovered).toBe(1);
    expect(calls.abandoned[0]).toBeGreaterThanOrEqual(back);
    expect(calls.abandoned[0]).toBeLessThanOrEqual(clock.now());
    // The new start is given its chance: no restart of it on the next answers.
    await pass(2 * DOWN_PROBE_INTERVAL_MS);
    expect(calls.restarts).toEqual([false]);
    expect(calls.recovered).toBe(1);
  });

  it('checks at once on a hint, also when nothing waits on the line, and then stops', async () => {
    const { calls, liveness, pass } = setUp({ matters: false });
    liveness.start();
    liveness.hint();
    await pass(100);
    expect(calls.pings).toBe(1);
    await pass(30_000);
    // A few seconds at the live pace, no more.
    expect(calls.pings).toBeLessThanOrEqual(5);
  });

  it('catches up once the line answers after a call got no answer', async () => {
    const { calls, liveness, pass } = setUp({ matters: false });
    liveness.start();
    liveness.noAnswer();
    await pass(1000);
    expect(calls.restarts).toEqual([]);
    expect(calls.recovered).toBe(1);
    // One call unanswered on a line that answers: nothing else under way is given up.
    expect(calls.abandoned).toEqual([-Infinity]);
  });
});
