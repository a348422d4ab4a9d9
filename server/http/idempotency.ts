import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { nowIso, type Db } from '../db/database.ts';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Keys are kept at least this long, so a client's outbox can retry for a day. */
export const IDEMPOTENCY_RETENTION_HOURS = 48;
const KEY = /^[A-Za-z0-9_-]{8,100}$/;
/** A placeholder row: the first request with this key is still running. */
const PENDING = 0;
/**
 * A placeholder older than this belongs to a request that will never finish (its process was killed,
 * or its database connection cut before the key could be released): the next retry takes it over
 * instead of being told to wait forever. Far beyond any request's own run time.
 */
export const PENDING_ABANDONED_MS = 60_000;

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's claim on its key: the placeholder row it wrote, known by its `since` stamp. */
    idempotency?: { accountId: number; key: string; since: string };
  }
}

/**
 * Rebuilds the answer of a replayed create call from the created entity's id (the `id`, or a numeric
 * `value`, of the first answer), so the store holds no message body: a conversation deleted by its
 * child is erased here too, and a replay shows what is left of it.
 */
export type Replay = (id: number | null, req: FastifyRequest) => Promise<unknown>;

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('base64url');

/** Uploaded files (multipart bodies) count by their hash, so a 10 MB file is not stringified. */
const comparable = (body: unknown): unknown =>
  body && typeof body === 'object' && !Array.isArray(body)
    ? Object.fromEntries(
        Object.entries(body).map(([k, v]) => [k, v instanceof Uint8Array ? `sha256:${sha256(v)}` : v]),
      )
    : body;

/** The request as sent: method, path with its ids and query, and body. The same key for another id is another request. */
const digestOf = (req: FastifyRequest) =>
  sha256(`${req.method} ${req.url}\n${JSON.stringify(comparable(req.body ?? null))}`);

/**
 * Makes a create call safe to retry: the same `Idempotency-Key` with the same body gives the first
 * answer again and creates nothing; the same key with another body is refused with 422. Keys belong
 * to the account, so one user's key can never replay another user's answer. Use as a preHandler
 * after authentication, together with `storeIdempotentReplies` on its app.
 */
export function idempotent(ctx: AppContext, replay: Replay) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const key = req.headers[IDEMPOTENCY_HEADER];
    if (key === undefined || !req.principal) return;
    if (typeof key !== 'string' || !KEY.test(key)) throw new ApiError('bad_request');
    const accountId = req.principal.accountId;
    const digest = digestOf(req);
    const since = nowIso();
    const inserted = await ctx.db
      .insertInto('idempotency_keys')
      .values({
        account_id: accountId,
        key,
        route: req.routeOptions.url ?? '',
        request_digest: digest,
        status_code: PENDING,
        response_id: null,
        created_date: since,
      })
      .onConflict((oc) => oc.columns(['account_id', 'key']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1) {
      req.idempotency = { accountId, key, since };
      return;
    }
    const row = await ctx.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    if (row.request_digest !== digest) throw new ApiError('idempotency_mismatch');
    if (row.status_code === PENDING) {
      if (Date.parse(row.created_date) < Date.now() - PENDING_ABANDONED_MS) {
        // Only one of several concurrent retries wins the takeover (the row must still be as read).
        const taken = await ctx.db
          .updateTable('idempotency_keys')
          .set({ created_date: since })
          .where('account_id', '=', accountId)
          .where('key', '=', key)
          .where('status_code', '=', PENDING)
          .where('created_date', '=', row.created_date)
          .executeTakeFirst();
        if (Number(taken.numUpdatedRows) === 1) {
          req.idempotency = { accountId, key, since };
          return;
        }
      }
      reply.header('Retry-After', '1');
      throw new ApiError('too_many_requests');
    }
    reply.header('Idempotent-Replayed', 'true');
    return reply.code(row.status_code).send(await replay(row.response_id, req));
  };
}

/** The id a create call answered with: `{ id }` (an entity) or `{ value: id }` (SPEC §7 meeting message). */
function answeredId(payload: unknown): number | null {
  if (typeof payload !== 'string') return null;
  try {
    const body = JSON.parse(payload) as { id?: unknown; value?: unknown };
    const id = typeof body.id === 'number' ? body.id : body.value;
    return typeof id === 'number' && Number.isInteger(id) ? id : null;
  } catch {
    return null;
  }
}

/**
 * Records, in the create's own transaction, that the request's key made entity `id` and answers
 * `status`: the key is settled when, and only when, the entity is committed. A process killed right
 * after the commit (before its answer, or onSend, could run) leaves a settled key, so the client's
 * retry replays the entity instead of writing it a second time; a rolled-back create leaves the key
 * a placeholder, which onSend frees.
 */
export type RecordKey = (trx: Db, id: number) => Promise<void>;

/**
 * The `RecordKey` of a request; none when it came without a key. A claim that is no longer this
 * request's (a retry took the key over after PENDING_ABANDONED_MS while this one still ran) fails
 * the create, so that only one of the two stores its entity.
 */
export function recordKeyOf(req: FastifyRequest, status = 201): RecordKey | undefined {
  const claim = req.idempotency;
  if (!claim) return undefined;
  return async (trx, id) => {
    const recorded = await ownPlaceholder(
      trx.updateTable('idempotency_keys').set({ status_code: status, response_id: id }),
      claim,
    ).executeTakeFirst();
    if (Number(recorded.numUpdatedRows) !== 1) {
      throw new ApiError('too_many_requests', 'the key was taken over by a retry');
    }
  };
}

/** Narrows a statement to the request's own placeholder: still running, and still this request's. */
function ownPlaceholder<
  Q extends {
    where(column: 'account_id', op: '=', value: number): Q;
    where(column: 'key' | 'created_date', op: '=', value: string): Q;
    where(column: 'status_code', op: '=', value: number): Q;
  },
>(query: Q, claim: { accountId: number; key: string; since: string }): Q {
  return query
    .where('account_id', '=', claim.accountId)
    .where('key', '=', claim.key)
    .where('created_date', '=', claim.since)
    .where('status_code', '=', PENDING);
}

/**
 * Writes a created entity and its request's key in one transaction (see `RecordKey`): the one way a
 * create route stores what it creates. `write` returns the new row, whose `id` the key records.
 */
export async function createOnce<T extends { id: number }>(
  db: Db,
  record: RecordKey | undefined,
  write: (trx: Db) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    const row = await write(trx);
    await record?.(trx, row.id);
    return row;
  });
}

/**
 * Test-only fault point (FAULT_KILL_AFTER_CREATE): kills the process with SIGKILL right after the
 * Nth create that answered with success, after its commit and before its answer leaves. Proves that
 * a retry after any kill replays the stored answer. A production server refuses the setting.
 */
let createsSeen = 0;
function killIfFaultPoint(ctx: AppContext, reply: FastifyReply) {
  const n = ctx.config.faultKillAfterCreate;
  if (n === null || reply.statusCode < 200 || reply.statusCode >= 300) return;
  createsSeen += 1;
  if (createsSeen === n) process.kill(process.pid, 'SIGKILL');
}

/**
 * Settles each request's key as its answer leaves (onSend). A success the create's transaction has not recorded (a route
 * with no entity of its own, the client log) is recorded now; a refused or failed request frees the
 * key, unless its entity was committed with it (the row is no longer a placeholder then, and stays).
 */
export function storeIdempotentReplies(app: FastifyInstance, ctx: AppContext): void {
  const later = new SettleLater();
  app.addHook('onClose', async () => later.stop());
  app.addHook('onSend', async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const claim = req.idempotency;
    if (!claim) return payload;
    req.idempotency = undefined;
    killIfFaultPoint(ctx, reply);
    // Only a success is remembered: a refusal (429 over a limit, 409 for a state) may pass on retry.
    const succeeded = reply.statusCode >= 200 && reply.statusCode < 300;
    const settle = succeeded
      ? () =>
          ownPlaceholder(
            ctx.db
              .updateTable('idempotency_keys')
              .set({ status_code: reply.statusCode, response_id: answeredId(payload) }),
            claim,
          ).execute()
      : () => ownPlaceholder(ctx.db.deleteFrom('idempotency_keys'), claim).execute();
    // The answer goes out whatever happens here. A failure (most often the same broken database
    // connection that failed the request) is tried once more on a fresh connection; if that fails
    // too (the database is away), this process goes on trying in the background, so the client's
    // retry is served as soon as the database is back, not only when PENDING_ABANDONED_MS lets it
    // take the key over.
    try {
      await settle();
    } catch {
      await settle().catch((error: unknown) => {
        // One line, not a stack: while the database is away every such request says the same.
        const code = (error as { code?: unknown }).code ?? (error as Error).message;
        req.log.warn({ code }, 'idempotency key not settled; trying again in the background');
        later.add(settle);
      });
    }
    return payload;
  });
}

/**
 * Settles keys whose settling failed, every SETTLE_RETRY_MS until it succeeds or the key is past
 * PENDING_ABANDONED_MS (a retry may take it over then, and the statement, narrowed to this request's
 * own placeholder, would change nothing). At most SETTLE_LATER_MAX wait at a time, so a long outage
 * neither grows the list without end nor floods the pool when the database is back: past it, a key
 * is left to the takeover. The timer does not keep the process alive and stops with the app.
 */
export const SETTLE_RETRY_MS = 1000;
export const SETTLE_LATER_MAX = 1000;
class SettleLater {
  private readonly pending = new Map<() => Promise<unknown>, number>();
  private timer: NodeJS.Timeout | null = null;

  add(settle: () => Promise<unknown>) {
    if (this.pending.size >= SETTLE_LATER_MAX) return;
    this.pending.set(settle, Date.now() + PENDING_ABANDONED_MS);
    this.timer ??= setInterval(() => void this.tryAll(), SETTLE_RETRY_MS).unref();
  }

  private running = false;

  private async tryAll() {
    if (this.running) return;
    this.running = true;
    for (const [settle, until] of [...this.pending]) {
      if (Date.now() > until) {
        this.pending.delete(settle);
        continue;
      }
      const done = await settle().then(
        () => true,
        () => Date.now() > until,
      );
      if (done) this.pending.delete(settle);
    }
    this.running = false;
  }

  stop() {
    this.pending.clear();
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.pending.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }
}

/** A replay whose answer names only the id: `{ value: id }`. */
export const replayValue: Replay = async (id) => ({ value: id });

/** Drops keys past their retention; cheap enough to run on a timer in every process. */
export async function pruneIdempotencyKeys(ctx: AppContext) {
  const cutoff = new Date(Date.now() - IDEMPOTENCY_RETENTION_HOURS * 3600_000).toISOString();
  await ctx.db.deleteFrom('idempotency_keys').where('created_date', '<', cutoff).execute();
}
