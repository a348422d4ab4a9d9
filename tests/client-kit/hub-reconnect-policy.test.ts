import { describe, expect, it } from 'vitest';
import { FIRST_RETRY_SPREAD_MS, reconnectDelay } from '../../client-kit/hub/build-hub-connection.ts';
import { HUB_RECONNECT_DELAYS_MS } from '../../contract/timings.ts';

describe('the hub reconnect policy', () => {
  it('keeps SPEC §4 delays (0, 2, 10, 30 s, then stop) as its earliest times', () => {
    const earliest = HUB_RECONNECT_DELAYS_MS.map((_, i) => reconnectDelay(i, () => 0));
    expect(earliest).toEqual([0, 2000, 10_000, 30_000]);
    expect(reconnectDelay(HUB_RECONNECT_DELAYS_MS.length, () => 0)).toBeNull();
  });

  it('spreads each retry past its delay: the first over a second, the later by a quarter', () => {
    const latest = HUB_RECONNECT_DELAYS_MS.map((_, i) => reconnectDelay(i, () => 1));
    expect(latest).toEqual([FIRST_RETRY_SPREAD_MS, 2500, 12_500, 37_500]);
  });

  it('sends a thousand clients dropped at once back over the whole second, not in one instant', () => {
    const firstRetries = Array.from({ length: 1000 }, () => reconnectDelay(0)!);
    const perTenth = new Array<number>(10).fill(0);
    for (const delay of firstRetries) perTenth[Math.min(9, Math.floor(delay / 100))]! += 1;
    // Uniform over ten slices of 100 ms: no slice gets more than a fifth of them.
    expect(Math.max(...perTenth)).toBeLessThan(200);
    expect(Math.min(...perTenth)).toBeGreaterThan(0);
  });
});
