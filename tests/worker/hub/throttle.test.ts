import { describe, expect, it } from 'vitest';
import { EVENT_THROTTLE_MS, keyedDebounce, keyedThrottle } from '../../../worker/hub/throttle.ts';
import { ManualClock } from '../helpers.ts';

describe('hub event throttle (SPEC §7)', () => {
  it('runs at once, then once more at the end of a burst, per key', () => {
    const clock = new ManualClock();
    const runs: string[] = [];
    const throttled = keyedThrottle(clock, EVENT_THROTTLE_MS.ConversationMessageCreated!, (key) =>
      runs.push(`${key}@${clock.now()}`),
    );
    const t0 = clock.now();
    throttled('c1');
    throttled('c1');
    clock.advance(100);
    throttled('c1');
    throttled('c2');
    expect(runs).toEqual([`c1@${t0}`, `c2@${t0 + 100}`]);
    clock.advance(150);
    expect(runs).toEqual([`c1@${t0}`, `c2@${t0 + 100}`, `c1@${t0 + 250}`]);
    clock.advance(1000);
    expect(runs).toHaveLength(3);
  });

  it('uses 250 ms for new messages and 1 s for conversation updates', () => {
    expect(EVENT_THROTTLE_MS).toEqual({ ConversationMessageCreated: 250, 'Conversation.Updated': 1000 });
  });
});

describe('reconcile debounce', () => {
  it('runs once a key has been quiet, and at the latest after the ceiling in a steady stream', () => {
    const clock = new ManualClock();
    const runs: string[] = [];
    const debounced = keyedDebounce(clock, 1000, 5000, (key) => runs.push(`${key}@${clock.now()}`));
    const t0 = clock.now();
    debounced('c1');
    clock.advance(600);
    debounced('c1');
    debounced('c2');
    clock.advance(999);
    expect(runs).toEqual([]);
    clock.advance(1);
    expect(runs).toEqual([`c1@${t0 + 1600}`, `c2@${t0 + 1600}`]);

    // A message every 500 ms: never quiet for a second, yet it runs 5 s after the first.
    const t1 = clock.now();
    for (let i = 0; i < 14; i++) {
      debounced('c1');
      clock.advance(500);
    }
    expect(runs.slice(2)).toEqual([`c1@${t1 + 5000}`]);
    clock.advance(1000);
    expect(runs.slice(2)).toEqual([`c1@${t1 + 5000}`, `c1@${t1 + 7500}`]);
  });
});
