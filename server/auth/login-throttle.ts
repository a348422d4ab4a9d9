import type { Db } from '../db/database.ts';

/**
 * Failed-login counters in fixed windows, kept in the database so that every server process of one
 * site counts together. The numbers are stated in the README.
 */
export const LOGIN_LIMITS = {
  windowSeconds: 15 * 60,
  /** Failed logins from one client address per window. */
  perAddress: 30,
  /** Failed logins for one username per window. */
  perAccount: 10,
  /** Failed personal-code logins from all addresses together per window (a distributed guesser). */
  personalCodeGlobal: 500,
} as const;

export type ThrottleKey = `addr:${string}` | `user:${string}` | `reg:${string}` | 'code:*';

export class LoginThrottle {
  constructor(private readonly db: Db) {}

  private windowStart(now: number): string {
    const w = LOGIN_LIMITS.windowSeconds * 1000;
    return new Date(Math.floor(now / w) * w).toISOString();
  }

  /** Seconds until the window ends when any key is at its limit, else 0. */
  async blockedFor(keys: Array<[ThrottleKey, number]>): Promise<number> {
    const now = Date.now();
    const start = this.windowStart(now);
    const rows = await this.db
      .selectFrom('login_throttle')
      .selectAll()
      .where(
        'key',
        'in',
        keys.map(([k]) => k),
      )
      .where('window_start', '=', start)
      .execute();
    const blocked = rows.some((r) => r.failures >= (keys.find(([k]) => k === r.key)?.[1] ?? Infinity));
    if (!blocked) return 0;
    return Math.ceil((Date.parse(start) + LOGIN_LIMITS.windowSeconds * 1000 - now) / 1000);
  }

  async recordFailure(keys: ThrottleKey[]): Promise<void> {
    const start = this.windowStart(Date.now());
    for (const key of keys) {
      await this.db
        .insertInto('login_throttle')
        .values({ key, window_start: start, failures: 1 })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet((eb) => ({
            // A row from an earlier window starts again at one.
            failures: eb
              .case()
              .when('login_throttle.window_start', '=', start)
              .then(eb('login_throttle.failures', '+', 1))
              .else(1)
              .end(),
            window_start: start,
          })),
        )
        .execute();
    }
  }

  async clear(key: ThrottleKey): Promise<void> {
    await this.db.deleteFrom('login_throttle').where('key', '=', key).execute();
  }
}
