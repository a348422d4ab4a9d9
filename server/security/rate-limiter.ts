import { sql } from 'kysely';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.ts';
import { ApiError } from '../errors.ts';
import type { KeyedDigest } from './keyed-digest.ts';
import { addressKey } from './client-address.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** At most `count` in each fixed window of `windowMs`. */
export interface Limit {
  count: number;
  windowMs: number;
}

/**
 * What one account and one address may create (the README's security model lists them). Generous
 * for a child writing by hand, a school class behind one address, a counsellor with three chats;
 * tight enough that nobody can flood a counsellor's queue or a group chat.
 */
export const RATE_LIMITS = {
  chat: { perAccount: { count: 10, windowMs: HOUR }, perAddress: { count: 60, windowMs: HOUR } },
  mail: { perAccount: { count: 10, windowMs: HOUR }, perAddress: { count: 60, windowMs: HOUR } },
  message: { perAccount: { count: 30, windowMs: MINUTE }, perAddress: { count: 300, windowMs: MINUTE } },
  activity: { perAccount: { count: 60, windowMs: MINUTE }, perAddress: { count: 600, windowMs: MINUTE } },
  meetingMessage: { perAccount: { count: 20, windowMs: HOUR }, perAddress: { count: 200, windowMs: HOUR } },
  profile: { perAccount: { count: 30, windowMs: HOUR }, perAddress: { count: 300, windowMs: HOUR } },
  clientLog: { perAccount: { count: 30, windowMs: MINUTE }, perAddress: { count: 120, windowMs: MINUTE } },
  usernameCheck: { perAddress: { count: 60, windowMs: MINUTE } },
  // The public assistant (issue 14): tokens and questions from one address (a school class shares
  // one), and questions per token (the one anonymous person behind it).
  assistantToken: { perAddress: { count: 120, windowMs: HOUR } },
  assistantAsk: { perAddress: { count: 300, windowMs: MINUTE } },
  assistantAskPerToken: { perAddress: { count: 20, windowMs: MINUTE } },
  peerPost: { perAccount: { count: 10, windowMs: HOUR }, perAddress: { count: 100, windowMs: HOUR } },
  peerReply: { perAccount: { count: 30, windowMs: HOUR }, perAddress: { count: 300, windowMs: HOUR } },
  peerReport: { perAccount: { count: 20, windowMs: HOUR }, perAddress: { count: 200, windowMs: HOUR } },
  staffMessage: { perAccount: { count: 60, windowMs: MINUTE } },
  staffCreate: { perAccount: { count: 60, windowMs: HOUR } },
  staffUpload: { perAccount: { count: 30, windowMs: HOUR } },
} as const satisfies Record<string, { perAccount?: Limit; perAddress?: Limit }>;

export type LimitName = keyof typeof RATE_LIMITS | 'registration';

/**
 * Fixed-window counters in the database, so every server process counts together. Each count is
 * one atomic upsert; a request over any limit is refused with 429, `Retry-After` and a Swedish
 * message, and the client's outbox tries again later.
 */
export class RateLimiter {
  constructor(
    private readonly db: Db,
    private readonly digest: KeyedDigest,
    private readonly options: { factor: number; registrationsPerAddress: number },
  ) {}

  limitsOf(name: LimitName): { perAccount?: Limit; perAddress?: Limit } {
    if (name === 'registration') {
      return { perAddress: { count: this.options.registrationsPerAddress, windowMs: 15 * MINUTE } };
    }
    return RATE_LIMITS[name];
  }

  /** Counts one use of `name` by this account and address; throws `rate_limited` when over. */
  async consume(name: LimitName, accountId: number | null, address: string, reply?: FastifyReply) {
    const limits = this.limitsOf(name);
    const checks: Array<[string, Limit]> = [];
    if (limits.perAccount && accountId !== null)
      checks.push([`${name}:acct:${accountId}`, limits.perAccount]);
    if (limits.perAddress) checks.push([`${name}:addr:${address}`, limits.perAddress]);
    let retryAfterMs = 0;
    for (const [key, limit] of checks) {
      const wait = await this.count(await this.digest.of(key), limit);
      retryAfterMs = Math.max(retryAfterMs, wait);
    }
    if (retryAfterMs > 0) {
      reply?.header('Retry-After', String(Math.ceil(retryAfterMs / 1000)));
      throw new ApiError('rate_limited');
    }
  }

  /** A preHandler that counts `name` for the signed-in caller (or the address alone for public calls). */
  preHandler(name: LimitName) {
    return async (req: FastifyRequest, reply: FastifyReply) => {
      await this.consume(name, req.principal?.accountId ?? null, addressKey(req.ip), reply);
    };
  }

  async prune(now = Date.now()): Promise<void> {
    // The longest window is an hour; anything older is over.
    await this.db
      .deleteFrom('rate_limits')
      .where('window_start', '<', now - 2 * HOUR)
      .execute();
  }

  /** 0 when within the limit, else milliseconds until the window ends. */
  private async count(key: string, limit: Limit): Promise<number> {
    const now = Date.now();
    const windowStart = Math.floor(now / limit.windowMs) * limit.windowMs;
    const row = await this.db
      .insertInto('rate_limits')
      .values({ key, window_start: windowStart, count: 1 })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          count: sql<number>`CASE WHEN rate_limits.window_start = ${sql.lit(windowStart)} THEN rate_limits.count + 1 ELSE 1 END`,
          window_start: windowStart,
        }),
      )
      .returning('count')
      .executeTakeFirstOrThrow();
    const allowed = Math.max(1, Math.round(limit.count * this.options.factor));
    return row.count > allowed ? windowStart + limit.windowMs - now : 0;
  }
}
