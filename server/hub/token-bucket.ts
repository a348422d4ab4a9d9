/**
 * A token bucket in memory: `burst` at first, refilled at `perSecond`. For limits that belong to one
 * object in one process (a hub connection's invocations); limits shared by processes are in the
 * database (server/security/rate-limiter.ts).
 */
export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly burst: number,
    private readonly perSecond: number,
    now = Date.now(),
  ) {
    this.tokens = burst;
    this.at = now;
  }

  /** Takes one token; false when none is left. */
  take(now = Date.now()): boolean {
    this.tokens = Math.min(this.burst, this.tokens + (Math.max(0, now - this.at) / 1000) * this.perSecond);
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
