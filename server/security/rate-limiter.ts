import { sql } from 'kysely';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.ts';
import { ApiError } from '../errors.ts';
import type { KeyedDigest } from './keyed-digest.ts';
import { addressKey } from './client-address.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** At most `count` in any span of `windowMs` (a token bucket of `count`, refilled over `windowMs`). */
export interface Limit {
  count: number;
  windowMs: number;
}

/**
 * What one account and one address may create (docs/security.md lists them). Generous
 * for a child writing by hand, a school class behind one address, a counsellor with three chats;
 * tight enough that nobody can flood a counsellor's queue or a group chat.
 */
export const RATE_LIMITS = {
  chat: { perAccount: { count: 10, windowMs: HOUR }, perAddress: { count: 60, windowMs: HOUR } },
  mail: { perAccount: { count: 10, windowMs: HOUR }, perAddress: { count: 60, windowMs: HOUR } },
  message: { perAccount: { count: 30, windowMs: MINUTE }, perAddress: { count: 300, windowMs: MINUTE } },
  activity: { perAccount: { count: 60, windowMs: MINUTE }, perAddress: { count: 1800, windowMs: MINUTE } },
  meetingMessage: { perAccount: { count: 20, windowMs: HOUR }, perAddress: { count: 200, windowMs: HOUR } },
  profile: { perAccount: { count: 30, windowMs: HOUR }, perAddress: { count: 300, windowMs: HOUR } },
  clientLog: { perAccount: { count: 30, windowMs: MINUTE }, perAddress: { count: 120, windowMs: MINUTE } },
  usernameCheck: { perAddress: { count: 300, windowMs: MINUTE } },
  // The public assistant: tokens and questions from one address (a school class shares
  // one), and questions per token (the one anonymous person behind it).
  assistantToken: { perAddress: { count: 120, windowMs: HOUR } },
  assistantAsk: { perAddress: { count: 300, windowMs: MINUTE } },
  assistantAskPerToken: { perAddress: { count: 20, windowMs: MINUTE } },
  peerPost: { perAccount: { count: 10, windowMs: HOUR }, perAddress: { count: 100, windowMs: HOUR } },
  peerReply: { perAccount: { count: 30, windowMs: HOUR }, perAddress: { count: 300, windowMs: HOUR } },
  peerReport: { perAccount: { count: 20, windowMs: HOUR }, perAddress: { count: 200, windowMs: HOUR } },
  pushSubscription: { perAccount: { count: 20, windowMs: HOUR }, perAddress: { count: 300, windowMs: HOUR } },
  // 'Hur kändes chatten?': one answer and one text per ended chat; this bounds a burst of tries.
  feedback: { perAccount: { count: 20, windowMs: HOUR }, perAddress: { count: 300, windowMs: HOUR } },
  staffMessage: { perAccount: { count: 60, windowMs: MINUTE } },
  staffCreate: { perAccount: { count: 60, windowMs: HOUR } },
  staffUpload: { perAccount: { count: 30, windowMs: HOUR } },
} as const satisfies Record<string, { perAccount?: Limit; perAddress?: Limit }>;

export type LimitName = keyof typeof RATE_LIMITS | 'registration';

/**
 * Token buckets in the database, so every server process counts together: a limit of `count` per
 * `windowMs` lets `count` through at once, then one each `windowMs / count` (the generic cell rate
 * algorithm: one stored time per key, updated in one atomic statement). Unlike fixed windows, twice
 * a limit never passes around a window's turn. A request over a limit is refused with 429,
 * `Retry-After` and a Swedish message, and the client's outbox tries again later.
 *
 * The account's own limit is asked first: a request it refuses is not counted against the address,
 * so one account behind a school's shared address cannot spend the others' budget; and a request
 * the address refuses gives the account its token back.
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
    const refuse = (waitMs: number): never => {
      reply?.header('Retry-After', String(Math.max(1, Math.ceil(waitMs / 1000))));
      throw new ApiError('rate_limited');
    };
    let account: { key: string; limit: Limit } | null = null;
    if (limits.perAccount && accountId !== null) {
      account = { key: await this.digest.of(`${name}:acct:${accountId}`), limit: limits.perAccount };
      const wait = await this.take(account.key, account.limit);
      if (wait > 0) refuse(wait);
    }
    if (limits.perAddress) {
      const wait = await this.take(await this.digest.of(`${name}:addr:${address}`), limits.perAddress);
      if (wait > 0) {
        if (account) await this.giveBack(account.key, account.limit);
        refuse(wait);
      }
    }
  }

  /** A preHandler that counts `name` for the signed-in caller (or the address alone for public calls). */
  preHandler(name: LimitName) {
    return async (req: FastifyRequest, reply: FastifyReply) => {
      await this.consume(name, req.principal?.accountId ?? null, addressKey(req.ip), reply);
    };
  }

  /** Drops full buckets: a missing row is a full bucket. */
  async prune(now = Date.now()): Promise<void> {
    await this.db.deleteFrom('rate_buckets').where('full_at', '<', now).execute();
  }

  /** Milliseconds one token of `limit` takes to come back (factor applied). */
  private intervalOf(limit: Limit): number {
    const allowed = Math.max(1, Math.round(limit.count * this.options.factor));
    return Math.max(1, Math.floor(limit.windowMs / allowed));
  }

  /**
   * Takes a token: 0 when there was one, else milliseconds until there is. One statement, so
   * parallel requests (and processes) cannot take the same token; a refused one changes nothing.
   */
  private async take(key: string, limit: Limit): Promise<number> {
    const now = Date.now();
    const interval = this.intervalOf(limit);
    // When the bucket is full again after this token: from now if it is full, else from then.
    const from = sql<number>`(CASE WHEN rate_buckets.full_at > ${now} THEN rate_buckets.full_at ELSE ${now} END)`;
    const taken = await this.db
      .insertInto('rate_buckets')
      .values({ key, full_at: now + interval })
      .onConflict((oc) =>
        oc
          .column('key')
          .doUpdateSet({ full_at: sql<number>`${from} + ${interval}` })
          .where(sql<boolean>`${from} + ${interval} - ${now} <= ${limit.windowMs}`),
      )
      .returning('full_at')
      .executeTakeFirst();
    if (taken) return 0;
    const row = await this.db
      .selectFrom('rate_buckets')
      .select('full_at')
      .where('key', '=', key)
      .executeTakeFirst();
    // A token is back once the bucket is at most a window minus one token from full.
    return Math.max(1, Number(row?.full_at ?? now) + interval - limit.windowMs - now);
  }

  private async giveBack(key: string, limit: Limit): Promise<void> {
    await this.db
      .updateTable('rate_buckets')
      .set({ full_at: sql<number>`full_at - ${this.intervalOf(limit)}` })
      .where('key', '=', key)
      .execute();
  }
}
