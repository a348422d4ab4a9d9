import { vi } from 'vitest';

/**
 * Holds the clock of this process (and so of an in-process test server) still, `Date` only: the
 * rate limits are token buckets that refill with time (server/security/rate-limiter.ts), and a
 * burst that a slow machine spreads out would get back a token or two on the way. Undo with
 * `vi.useRealTimers()`.
 */
export function holdClock(now = Date.now()) {
  vi.useFakeTimers({ toFake: ['Date'], now });
}
