import { describe, expect, it } from 'vitest';
import { EVENT_THROTTLE_MS, keyedThrottle } from '../../../worker/hub/throttle.ts';
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
