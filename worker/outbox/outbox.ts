import { liveQuery } from 'dexie';
import type { OutboxWriteRequest } from '../base/session.ts';
import { RATE_LIMITED_STATUS, type OutboxRow, type PortalDb } from '../base/db.ts';
import type { Clock } from '../clock.ts';
import { isHttpError, refusalOf } from '../http/http-error.ts';
import { isFinalStatus, isServerError, retryDelayMs } from './backoff.ts';

export interface OutboxDeps {
  db: PortalDb;
  clock: Clock;
  /** Makes the call for one row, sending `row.clientId` as the Idempotency-Key; throws HttpError. */
  send(row: OutboxRow): Promise<unknown>;
  /** Called after a 401: true when a fresh token is available and the row may be sent again. */
  refreshToken(): Promise<boolean>;
  /**
   * Told after each attempt at a row (sent or failed), in the worker that sends: the hook of the
   * row's kind shows the result (a chat row's status). Callers that wait for their own write use
   * `whenSettled` instead, which works in every worker.
   */
  onSettled?(row: OutboxRow): Promise<void>;
  /** Told after every attempt that failed in a way the network or the server may end (not a refusal). */
  onWaiting?(row: OutboxRow): void;
  /** Whether the child looks at the app now: a server error is then retried soon (SERVER_ERROR_RETRY_MS). */
  hurry?(): boolean;
  random?: () => number;
}

/** Sent rows are kept a day so the UI can show 'Skickat'; older ones are pruned at start. */
const KEEP_SENT_MS = 24 * 3600_000;
const NEVER = Number.MAX_SAFE_INTEGER;

/**
 * The outbox of ARCHITECTURE.md: writes are rows in IndexedDB first (they survive a closed app),
 * sent in createdAt order one at a time per orderKey, retried with backoff, never duplicated on the
 * server thanks to the Idempotency-Key.
 */
export class Outbox {
  private readonly lanes = new Map<string, Promise<void>>();
  private timer: unknown = null;
  private stopped = true;
  private lastCreatedAt = 0;
  /** Rows whose last attempt failed and that will be tried again (this worker's attempts). */
  private readonly failing = new Set<string>();

  constructor(private readonly deps: OutboxDeps) {}

  async enqueue(write: OutboxWriteRequest): Promise<string> {
    const now = this.deps.clock.now();
    // Strictly increasing, so two writes of the same millisecond keep the order they were made in.
    const createdAt = Math.max(now, this.lastCreatedAt + 1);
    this.lastCreatedAt = createdAt;
    const row: OutboxRow = {
      clientId: write.clientId ?? crypto.randomUUID(),
      kind: write.kind,
      path: write.path,
      body: write.body,
      orderKey: write.orderKey ?? write.kind,
      status: 'queued',
      attempts: 0,
      createdAt,
      nextAttemptAt: now,
    };
    await this.deps.db.outbox.add(row);
    if (!this.stopped) this.pumpSoon();
    return row.clientId;
  }

  /**
   * The row once it was sent or failed, or as it is after `timeoutMs` (undefined: no such row). The
   * row in IndexedDB is the one record of a write, so this also sees rows another worker sends.
   */
  whenSettled(clientId: string, timeoutMs: number): Promise<OutboxRow | undefined> {
    const { db, clock } = this.deps;
    return new Promise((resolve) => {
      let latest: OutboxRow | undefined;
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        clock.clearTimeout(timer);
        // Unsubscribing inside `next` is not allowed before subscribe() returned.
        queueMicrotask(() => subscription.unsubscribe());
        resolve(latest);
      };
      const timer = clock.setTimeout(finish, timeoutMs);
      const subscription = liveQuery(() => db.outbox.get(clientId)).subscribe({
        next: (row) => {
          latest = row;
          if (row?.status === 'sent' || row?.status === 'failed') finish();
        },
        error: () => finish(),
      });
    });
  }

  /**
   * Resumes after a restart: a row left 'sending' by a dead worker is sent again (same key), and a
   * row waiting out a backoff is tried at once, as when the network comes back: the wait was the
   * old worker's (its timer died with it), and a new worker is often what ends the fault.
   */
  async start(): Promise<void> {
    this.stopped = false;
    const { outbox } = this.deps.db;
    await outbox.where('status').equals('sending').modify({ status: 'queued' });
    const cutoff = this.deps.clock.now() - KEEP_SENT_MS;
    await outbox
      .where('status')
      .equals('sent')
      .filter((r) => r.createdAt < cutoff)
      .delete();
    await this.flush();
  }

  /** Whether a write of this worker waits for the network or the server to let it through. */
  get waiting(): boolean {
    return this.failing.size > 0;
  }

  stop(): void {
    this.stopped = true;
    this.failing.clear();
    if (this.timer !== null) this.deps.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  /**
   * Retries every waiting row now (network back, the user tapped 'try again'), then waits for them.
   * A row the server asked to wait (429) keeps its time: the network coming back changes nothing.
   */
  async flush(): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.db.outbox
      .where('status')
      .equals('failed')
      .filter(
        (r) =>
          !r.final &&
          r.lastStatus !== RATE_LIMITED_STATUS &&
          (r.serverWaitUntil === undefined || r.serverWaitUntil <= now),
      )
      .modify({ nextAttemptAt: now });
    await this.pump();
  }

  /**
   * A write the server refused ('Försök igen'): sent again from the first attempt, in its old place
   * in its lane. False when there is no such refused row (already sent, removed, or still trying).
   */
  async retry(clientId: string): Promise<boolean> {
    const changed = await this.deps.db.outbox
      .where('clientId')
      .equals(clientId)
      .filter((r) => r.status === 'failed' && r.final === true)
      .modify({ status: 'queued', final: false, attempts: 0, nextAttemptAt: this.deps.clock.now() });
    if (changed > 0) this.pumpSoon();
    return changed > 0;
  }

  /**
   * A write the user gave up ('Ta bort'): removed unless an attempt is under way or it was sent, so
   * what the server may already hold is never hidden from the screen.
   */
  async discard(clientId: string): Promise<boolean> {
    const { outbox } = this.deps.db;
    return this.deps.db.transaction('rw', outbox, async () => {
      const row = await outbox.get(clientId);
      if (!row || row.status === 'sending' || row.status === 'sent') return false;
      await outbox.delete(clientId);
      this.failing.delete(clientId);
      return true;
    });
  }

  /** Starts every lane whose head is due, waits for them, and sets a timer for the next due row. */
  async pump(): Promise<void> {
    if (this.stopped) return;
    const pending = await this.pendingRows();
    const now = this.deps.clock.now();
    const heads = new Map<string, OutboxRow>();
    for (const row of pending) if (!heads.has(row.orderKey)) heads.set(row.orderKey, row);
    let nextDue = NEVER;
    const running: Promise<void>[] = [];
    for (const [orderKey, head] of heads) {
      const lane = this.lanes.get(orderKey);
      if (lane) running.push(lane);
      else if (head.nextAttemptAt <= now) running.push(this.runLane(orderKey));
      else nextDue = Math.min(nextDue, head.nextAttemptAt);
    }
    this.schedule(nextDue);
    await Promise.all(running);
  }

  /** A pump nobody waits for: its failure (the database closed under it) is only logged. */
  private pumpSoon(): void {
    void this.pump().catch((error: unknown) => console.warn('Outbox pump failed', error));
  }

  private runLane(orderKey: string): Promise<void> {
    const lane = (async () => {
      try {
        for (;;) {
          const head = (await this.pendingRows()).find((r) => r.orderKey === orderKey);
          if (!head || head.nextAttemptAt > this.deps.clock.now() || this.stopped) break;
          await this.sendRow(head);
        }
      } finally {
        this.lanes.delete(orderKey);
      }
      // The lane may have stopped on a backoff: make sure a timer covers it.
      await this.pump();
    })();
    this.lanes.set(orderKey, lane);
    return lane;
  }

  private async sendRow(row: OutboxRow): Promise<void> {
    const { outbox } = this.deps.db;
    const attempts = row.attempts + 1;
    await outbox.update(row.clientId, { status: 'sending', attempts });
    let refreshed = false;
    for (;;) {
      try {
        const response = await this.deps.send(row);
        this.failing.delete(row.clientId);
        await outbox.update(row.clientId, {
          status: 'sent',
          response,
          lastError: undefined,
          lastMessage: undefined,
          serverWaitUntil: undefined,
        });
        await this.settled(row.clientId);
        return;
      } catch (error) {
        const status = isHttpError(error) ? error.status : 0;
        if (status === 401 && !refreshed) {
          refreshed = true;
          if (await this.deps.refreshToken()) continue;
        }
        const final = isFinalStatus(status);
        const retryAfterMs = isHttpError(error) ? error.retryAfterMs : null;
        const now = this.deps.clock.now();
        const hurried = isServerError(status) && (this.deps.hurry?.() ?? false);
        if (final) this.failing.delete(row.clientId);
        else this.failing.add(row.clientId);
        await outbox.update(row.clientId, {
          status: 'failed',
          final,
          lastStatus: status,
          lastError: error instanceof Error ? error.message : String(error),
          // The server's own words for the screen (a 429's 'Du har skickat många gånger ...').
          lastMessage: refusalOf(error)?.message,
          serverWaitUntil: retryAfterMs === null ? undefined : now + retryAfterMs,
          nextAttemptAt: final
            ? NEVER
            : now + retryDelayMs(attempts, retryAfterMs, this.deps.random, hurried),
        });
        await this.settled(row.clientId);
        if (!final) {
          const failed = await outbox.get(row.clientId);
          if (failed) this.deps.onWaiting?.(failed);
        }
        return;
      }
    }
  }

  private async settled(clientId: string): Promise<void> {
    const row = await this.deps.db.outbox.get(clientId);
    // A failing listener must not stop the lane: the row itself is already recorded.
    if (row) await this.deps.onSettled?.(row).catch((error: unknown) => console.warn('onSettled', error));
  }

  /** Rows still to be sent, oldest first; final failures no longer hold up their lane. */
  private async pendingRows(): Promise<OutboxRow[]> {
    const rows = await this.deps.db.outbox
      .where('status')
      .anyOf('queued', 'sending', 'failed')
      .filter((r) => !r.final)
      .toArray();
    return rows.sort((a, b) => a.createdAt - b.createdAt || a.clientId.localeCompare(b.clientId));
  }

  private schedule(at: number): void {
    if (this.timer !== null) this.deps.clock.clearTimeout(this.timer);
    this.timer = null;
    if (at === NEVER || this.stopped) return;
    this.timer = this.deps.clock.setTimeout(
      () => {
        this.timer = null;
        this.pumpSoon();
      },
      Math.max(0, at - this.deps.clock.now()),
    );
  }
}
