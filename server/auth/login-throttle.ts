import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.ts';
import type { KeyedDigest } from '../security/keyed-digest.ts';
import { DeviceTokens } from './device-tokens.ts';
import { LoginRecord } from './login-record.ts';

/** A growing delay: `free` attempts at once, then base, 2 base, 4 base ... at most `maxMs` apart. */
export interface DelayRule {
  free: number;
  baseMs: number;
  maxMs: number;
}

const MINUTE = 60_000;

/**
 * The login policy (docs/security.md states it with its guessing figures). No rule ever
 * locks anyone out for good: each one only spaces attempts out, and only the two "pair" rules apply
 * to the right credentials from an address a login has succeeded from before. The device rule
 * refuses nobody: it only says when a device token stops sparing its holder the brakes.
 */
export interface LoginPolicy {
  pair: DelayRule;
  codeAddress: DelayRule;
  address: DelayRule;
  username: DelayRule;
  device: DelayRule;
  forgetAfterMs: number;
  knownAddressMs: number;
}

export const LOGIN_POLICY: LoginPolicy = {
  /** One username from one address (password logins, and the old password of a change). */
  pair: { free: 5, baseMs: 1000, maxMs: 15 * MINUTE },
  /** Personal codes from one address: a code is its own username, so the address is the pair. */
  codeAddress: { free: 10, baseMs: 1000, maxMs: 15 * MINUTE },
  /** Brake: password logins from one address across usernames (one machine spraying many names). */
  address: { free: 30, baseMs: 1000, maxMs: 15 * MINUTE },
  /** Brake: one username from every address together (a guesser with many addresses). */
  username: { free: 100, baseMs: 1000, maxMs: 15 * MINUTE },
  /**
   * A device token's own failures, from wherever it is used: while this counter waits the token is
   * ignored (the attempt is judged by its address and username alone), never refused.
   */
  device: { free: 5, baseMs: 1000, maxMs: 15 * MINUTE },
  /** A counter without attempts for this long starts again from nothing. */
  forgetAfterMs: 24 * 60 * MINUTE,
  /** A login from an address keeps it known-good this long. */
  knownAddressMs: 90 * 24 * 60 * MINUTE,
};

/** Milliseconds to wait after the `n`th attempt (1-based) before the next one. */
export function delayAfter(rule: DelayRule, n: number): number {
  if (n < rule.free) return 0;
  return Math.min(rule.maxMs, rule.baseMs * 2 ** Math.min(30, n - rule.free));
}

/** When the attempt after the `n`th may come: 0 (any time) while free, else `now` plus the delay. */
function nextAllowedAt(rule: DelayRule, n: number, now: number): number {
  const delay = delayAfter(rule, n);
  // A free attempt sets no time at all, so a clock stepped back cannot turn it into a wait.
  return delay === 0 ? 0 : now + delay;
}

/** The same function in SQL over an attempts expression, so the reservation is one statement. */
function nextAllowedCase(rule: DelayRule, attempts: RawBuilder<number>, now: number): RawBuilder<number> {
  const steps: RawBuilder<unknown>[] = [sql`WHEN ${attempts} < ${sql.lit(rule.free)} THEN 0`];
  for (let n = rule.free; delayAfter(rule, n) < rule.maxMs; n++) {
    steps.push(sql`WHEN ${attempts} = ${sql.lit(n)} THEN ${sql.lit(now + delayAfter(rule, n))}`);
  }
  return sql<number>`(CASE ${sql.join(steps, sql` `)} ELSE ${sql.lit(now + rule.maxMs)} END)`;
}

export interface Counter {
  /** What is counted, e.g. `pair:demo|203.0.113.7`; stored only as a keyed digest. */
  key: string;
  rule: DelayRule;
}

export interface LoginAttempt {
  /** 0 when the attempt may go on; otherwise seconds until it may be tried again. */
  retryAfter: number;
  /** Whether a brake was on and only a known-good address or device let the attempt through. */
  braked: boolean;
  /** The counters this attempt was counted on, so success can give them back. */
  counted: string[];
  /**
   * The kinds (a key's prefix: `pair`, `addr`, `user`, `device` ...) of the counters that were
   * waiting: those that refused the attempt, a brake a known-good mark let it past, an ignored device.
   */
  waitedOn: string[];
  /** A device counter was given and had no wait: the token spared the attempt the brakes. */
  deviceHonoured: boolean;
}

/** What a counter counts, by its key's prefix (`pair:demo|203.0.113.7` is a `pair`). */
const kindOf = (counter: Counter) => counter.key.slice(0, Math.max(0, counter.key.indexOf(':')));

/**
 * Login attempts counted in the database, so every server process counts together. An attempt is
 * reserved - counted as if it failed - in one atomic statement before the slow password check, so
 * parallel guesses cannot all slip past a limit that was read before any of them was written.
 */
export class LoginThrottle {
  /** The device tokens that spare their holders the brakes (server/auth/device-tokens.ts). */
  readonly devices: DeviceTokens;
  /** What an administrator reads of failed and refused logins (server/auth/login-record.ts). */
  readonly record: LoginRecord;

  constructor(
    private readonly db: Db,
    private readonly digest: KeyedDigest,
    /** LOGIN_POLICY; a test may scale a rule down to reach it quickly. */
    readonly policy: LoginPolicy = LOGIN_POLICY,
  ) {
    this.devices = new DeviceTokens(db, digest, policy.knownAddressMs);
    this.record = new LoginRecord(db, digest);
  }

  /**
   * Reserves an attempt on every counter. `hard` counters always apply; `brakes` apply unless the
   * attempt's `device` counter (a device token the account was issued) has no wait, or
   * `knownGood()` says the address has signed in to this account before. A blocked hard counter
   * stops the attempt before anything else is counted. A waiting device counter never refuses: the
   * token is then ignored, and the attempt judged as if it had come without one.
   */
  async begin(
    hard: Counter[],
    brakes: Counter[],
    knownGood: () => Promise<boolean>,
    device?: Counter,
  ): Promise<LoginAttempt> {
    const counted: string[] = [];
    const waitedOn: string[] = [];
    let wait = 0;
    for (const counter of hard) {
      const result = await this.reserve(counter);
      if (result.ok) counted.push(result.key);
      else {
        wait = Math.max(wait, result.waitMs);
        waitedOn.push(kindOf(counter));
      }
    }
    if (wait > 0) {
      return { retryAfter: Math.ceil(wait / 1000), braked: false, counted, waitedOn, deviceHonoured: false };
    }
    let deviceHonoured = false;
    if (device) {
      const result = await this.reserve(device);
      if (result.ok) {
        counted.push(result.key);
        deviceHonoured = true;
      } else waitedOn.push(kindOf(device));
    }
    let brakeWait = 0;
    for (const counter of brakes) {
      const result = await this.reserve(counter);
      if (result.ok) counted.push(result.key);
      else {
        brakeWait = Math.max(brakeWait, result.waitMs);
        waitedOn.push(kindOf(counter));
      }
    }
    if (brakeWait === 0) return { retryAfter: 0, braked: false, counted, waitedOn, deviceHonoured };
    if (deviceHonoured || (await knownGood())) {
      return { retryAfter: 0, braked: true, counted, waitedOn, deviceHonoured };
    }
    // Refused without a check: nothing was learnt, so the attempt costs its owner nothing.
    await this.giveBack(counted);
    return {
      retryAfter: Math.ceil(brakeWait / 1000),
      braked: true,
      counted: [],
      waitedOn,
      deviceHonoured: false,
    };
  }

  /** The right credentials: the attempt is given back, and `reset` counters start from nothing. */
  async succeeded(attempt: LoginAttempt, reset: Counter[] = []): Promise<void> {
    const resetKeys = new Set(await Promise.all(reset.map((c) => this.digest.of(c.key))));
    for (const key of attempt.counted.filter((k) => resetKeys.has(k))) {
      await this.db.deleteFrom('login_attempts').where('key', '=', key).execute();
    }
    await this.giveBack(attempt.counted.filter((k) => !resetKeys.has(k)));
  }

  private async giveBack(keys: string[]): Promise<void> {
    for (const key of keys) {
      await this.db
        .updateTable('login_attempts')
        .set((eb) => ({ attempts: eb('attempts', '-', 1) }))
        .where('key', '=', key)
        .where('attempts', '>', 0)
        .execute();
    }
  }

  /** Remembers that `subject` (an account, or 'code' for personal codes) signed in from `address`. */
  async rememberAddress(subject: string, address: string): Promise<void> {
    const digest = await this.digest.of(`addr:${address}`);
    const now = Date.now();
    await this.db
      .insertInto('known_login_addresses')
      .values({ subject, address_digest: digest, last_seen_at: now })
      .onConflict((oc) => oc.columns(['subject', 'address_digest']).doUpdateSet({ last_seen_at: now }))
      .execute();
  }

  async isKnownAddress(subject: string, address: string): Promise<boolean> {
    const digest = await this.digest.of(`addr:${address}`);
    const row = await this.db
      .selectFrom('known_login_addresses')
      .select('subject')
      .where('subject', '=', subject)
      .where('address_digest', '=', digest)
      .where('last_seen_at', '>', Date.now() - this.policy.knownAddressMs)
      .executeTakeFirst();
    return !!row;
  }

  /** The account's known addresses and its device tokens stop sparing anyone. */
  async forgetSubject(subject: string): Promise<void> {
    await this.db.deleteFrom('known_login_addresses').where('subject', '=', subject).execute();
    await this.devices.forget(subject);
  }

  /**
   * Drops counters, addresses and device tokens nobody has used for their lifetime, and the login
   * record past its days (run on a timer).
   */
  async prune(now = Date.now()): Promise<void> {
    await this.devices.prune(now);
    await this.record.prune(now);
    await this.db
      .deleteFrom('login_attempts')
      .where('last_attempt_at', '<', now - this.policy.forgetAfterMs)
      .where('next_allowed_at', '<', now)
      .execute();
    await this.db
      .deleteFrom('known_login_addresses')
      .where('last_seen_at', '<', now - this.policy.knownAddressMs)
      .execute();
  }

  /**
   * One statement: count the attempt and push the next allowed time out, unless the counter is
   * still waiting - then nothing changes and the caller learns how long to wait.
   */
  private async reserve(
    counter: Counter,
  ): Promise<{ ok: true; key: string } | { ok: false; waitMs: number }> {
    const key = await this.digest.of(counter.key);
    const now = Date.now();
    // A counter quiet for a day starts again; its last delay has long passed.
    await this.db
      .deleteFrom('login_attempts')
      .where('key', '=', key)
      .where('last_attempt_at', '<', now - this.policy.forgetAfterMs)
      .where('next_allowed_at', '<=', now)
      .execute();
    const next = sql<number>`login_attempts.attempts + 1`;
    const reserved = await this.db
      .insertInto('login_attempts')
      .values({
        key,
        attempts: 1,
        next_allowed_at: nextAllowedAt(counter.rule, 1, now),
        last_attempt_at: now,
      })
      .onConflict((oc) =>
        oc
          .column('key')
          .doUpdateSet({
            attempts: next,
            next_allowed_at: nextAllowedCase(counter.rule, next, now),
            last_attempt_at: now,
          })
          .where('login_attempts.next_allowed_at', '<=', now),
      )
      .returning('attempts')
      .executeTakeFirst();
    if (reserved) return { ok: true, key };
    const row = await this.db
      .selectFrom('login_attempts')
      .select('next_allowed_at')
      .where('key', '=', key)
      .executeTakeFirst();
    return { ok: false, waitMs: Math.max(1000, Number(row?.next_allowed_at ?? now) - now) };
  }
}
