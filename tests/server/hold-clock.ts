import { vi } from 'vitest';

/**
 * Holds the clock of this process (and so of an in-process test server) still, `Date` only: the
 * rate limits count in fixed windows (server/security/rate-limiter.ts), and a burst that a slow
 * machine spreads over a window's end would be counted in two. Undo with `vi.useRealTimers()`.
 */
export function holdClock(now = Date.now()) {
  vi.useFakeTimers({ toFake: ['Date'], now });
}
