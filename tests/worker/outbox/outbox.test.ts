import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { PortalDb, type OutboxRow } from '../../../worker/base/db.ts';
import { HttpError } from '../../../worker/http/http-error.ts';
import { Outbox } from '../../../worker/outbox/outbox.ts';
import { backoffMs } from '../../../worker/outbox/backoff.ts';
import { ManualClock, uniqueName, waitForQuery } from '../helpers.ts';

const dbs: PortalDb[] = [];
afterEach(async () => {
  await Promise.all(dbs.splice(0).map((db) => db.delete()));
});

type Send = (row: OutboxRow) => Promise<unknown>;

function setup(
  send: Send,
  refreshToken: () => Promise<boolean> = async () => false,
  more: { hurry?: () => boolean; onWaiting?: (row: OutboxRow) => void } = {},
) {
  const db = new PortalDb(uniqueName('outbox'));
  dbs.push(db);
  const clock = new ManualClock();
  const outbox = new Outbox({ db, clock, send, refreshToken, random: () => 0, ...more });
  return { db, clock, outbox };
}

const write = (orderKey = 'c1', text = 'hej') => ({
  kind: 'conversationmessage',
  path: '/conversationmessage',
  body: { content: text },
  orderKey,
});

describe('outbox', () => {
  it('moves a row queued -> sending -> sent and stores the answer', async () => {
    const seen: string[] = [];
    const { db, outbox } = setup(async (row) => {
      seen.push((await db.outbox.get(row.clientId))!.status);
      return { id: 7 };
    });
    const id = await outbox.enqueue(write());
    expect((await db.outbox.get(id))?.status).toBe('queued');
    await outbox.start();
    expect(seen).toEqual(['sending']);
    const row = await db.outbox.get(id);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, response: { id: 7 } });
    expect(row?.clientId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends one row at a time per orderKey, in createdAt order', async () => {
    const sent: string[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const { outbox } = setup(async (row) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setImmediate(r));
      sent.push((row.body as { content: string }).content);
      inFlight--;
      return null;
    });
    for (const text of ['a', 'b', 'c']) await outbox.enqueue(write('same', text));
    await outbox.start();
    expect(sent).toEqual(['a', 'b', 'c']);
    expect(maxInFlight).toBe(1);
  });

  it('retries a network error with backoff 1 s, 2 s, 4 s and then succeeds', async () => {
    let calls = 0;
    const { db, clock, outbox } = setup(async (row) => {
      calls++;
      if (calls <= 3) throw new HttpError(calls === 2 ? 503 : 0, 'Unknown Error', 'POST', row.path);
      return { ok: true };
    });
    const id = await outbox.enqueue(write());
    const start = clock.now();
    await outbox.start();
    expect(await db.outbox.get(id)).toMatchObject({ status: 'failed', attempts: 1, lastStatus: 0 });
    expect(clock.nextAt()).toBe(start + 1000);

    clock.advance(999);
    await outbox.pump();
    expect(calls).toBe(1);
    clock.advance(1);
    await outbox.pump();
    expect(await db.outbox.get(id)).toMatchObject({ status: 'failed', attempts: 2, lastStatus: 503 });
    expect(clock.nextAt()).toBe(clock.now() + 2000);

    clock.advance(2000);
    await outbox.pump();
    expect(clock.nextAt()).toBe(clock.now() + 4000);
    clock.advance(4000);
    await outbox.pump();
    expect(await db.outbox.get(id)).toMatchObject({ status: 'sent', attempts: 4 });
    expect(calls).toBe(4);
  });

  it('caps the backoff at 15 s and adds jitter', () => {
    expect([1, 2, 3, 4, 5, 20].map((n) => backoffMs(n, () => 0))).toEqual([
      1000, 2000, 4000, 8000, 15_000, 15_000,
    ]);
    expect(backoffMs(1, () => 0.5)).toBe(1100);
  });

  it('fails for good on a 4xx other than 408/429 and lets the next row of the lane go', async () => {
    const { db, clock, outbox } = setup(async (row) => {
      if ((row.body as { content: string }).content === 'bad')
        throw new HttpError(422, 'x', 'POST', row.path);
      return null;
    });
    const bad = await outbox.enqueue(write('k', 'bad'));
    const good = await outbox.enqueue(write('k', 'good'));
    await outbox.start();
    expect(await db.outbox.get(bad)).toMatchObject({ status: 'failed', final: true, lastStatus: 422 });
    expect((await db.outbox.get(good))?.status).toBe('sent');
    expect(clock.pending()).toBe(0);
    await outbox.flush();
    expect((await db.outbox.get(bad))?.attempts).toBe(1);
  });

  it("sends a refused row again from the start on retry ('Försök igen'), only once it was refused", async () => {
    let refuse = true;
    const sent: string[] = [];
    const { db, outbox } = setup(async (row) => {
      if (refuse) throw new HttpError(403, 'x', 'POST', row.path);
      sent.push(row.clientId);
      return { id: 1 };
    });
    const id = await outbox.enqueue(write());
    await outbox.start();
    expect(await db.outbox.get(id)).toMatchObject({ status: 'failed', final: true, attempts: 1 });
    refuse = false;
    expect(await outbox.retry(id)).toBe(true);
    await outbox.pump();
    expect(await db.outbox.get(id)).toMatchObject({ status: 'sent', final: false, attempts: 1 });
    expect(sent).toEqual([id]);
    // Sent: nothing to retry, nothing to remove.
    expect(await outbox.retry(id)).toBe(false);
    expect(await outbox.discard(id)).toBe(false);
    expect(await outbox.retry('no-such-row')).toBe(false);
  });

  it("removes a refused or waiting row on discard ('Ta bort'), never one being sent", async () => {
    let release!: () => void;
    const hanging = new Promise<void>((resolve) => (release = resolve));
    const { db, outbox } = setup(async (row) => {
      const { content } = row.body as { content: string };
      if (content === 'refused') throw new HttpError(400, 'x', 'POST', row.path);
      if (content === 'offline') throw new HttpError(0, 'Unknown Error', 'POST', row.path);
      await hanging;
      return null;
    });
    const refused = await outbox.enqueue(write('a', 'refused'));
    const waiting = await outbox.enqueue(write('b', 'offline'));
    const inFlight = await outbox.enqueue(write('c', 'slow'));
    const started = outbox.start();
    await waitForQuery(
      () => db.outbox.get(inFlight),
      (row) => row?.status === 'sending',
    );
    await waitForQuery(
      () => db.outbox.get(waiting),
      (row) => row?.status === 'failed',
    );
    expect(await outbox.discard(inFlight)).toBe(false);
    expect(await outbox.discard(refused)).toBe(true);
    expect(await outbox.discard(waiting)).toBe(true);
    release();
    await started;
    expect(await db.outbox.get(refused)).toBeUndefined();
    expect(await db.outbox.get(waiting)).toBeUndefined();
    expect((await db.outbox.get(inFlight))?.status).toBe('sent');
  });

  it('does not let a hung row of one lane hold up another lane', async () => {
    let release!: () => void;
    const hanging = new Promise<void>((resolve) => (release = resolve));
    const sent: string[] = [];
    const { db, outbox } = setup(async (row) => {
      const { content } = row.body as { content: string };
      if (content === 'stuck') await hanging;
      sent.push(content);
      return null;
    });
    await outbox.start();
    const stuck = await outbox.enqueue(write('conversation:1', 'stuck'));
    const after = await outbox.enqueue(write('conversation:1', 'after'));
    const other = await outbox.enqueue(write('conversation:2', 'other'));
    await waitForQuery(
      () => db.outbox.get(other),
      (row) => row?.status === 'sent',
    );
    expect(sent).toEqual(['other']);
    expect((await db.outbox.get(after))?.status).toBe('queued');
    release();
    await waitForQuery(
      () => db.outbox.get(after),
      (row) => row?.status === 'sent',
    );
    expect(sent).toEqual(['other', 'stuck', 'after']);
    expect((await db.outbox.get(stuck))?.status).toBe('sent');
  });

  it('retries 408 like server errors', async () => {
    let calls = 0;
    const { db, outbox } = setup(async (row) => {
      calls++;
      throw new HttpError(calls === 1 ? 503 : 408, 'busy', 'POST', row.path);
    });
    const id = await outbox.enqueue(write());
    await outbox.start();
    await outbox.flush();
    expect(await db.outbox.get(id)).toMatchObject({ status: 'failed', final: false, attempts: 2 });
  });

  it("waits at least the server's Retry-After after a 429, keeps its Swedish message, then sends", async () => {
    const message = 'Du har skickat många gånger på kort tid. Vänta en stund och försök igen.';
    let limited = true;
    const { db, clock, outbox } = setup(async (row) => {
      if (limited) {
        const body = { error: 'rate_limited', message };
        throw new HttpError(429, `429 ${message}`, 'POST', row.path, body, 30_000);
      }
      return { id: 9 };
    });
    const id = await outbox.enqueue(write());
    const start = clock.now();
    await outbox.start();
    const waiting = await db.outbox.get(id);
    expect(waiting).toMatchObject({
      status: 'failed',
      final: false,
      attempts: 1,
      lastStatus: 429,
      lastMessage: message,
    });
    // The plain backoff would retry after 1 s; the server asked for 30.
    expect(waiting!.nextAttemptAt).toBeGreaterThanOrEqual(start + 30_000);
    expect(clock.nextAt()).toBe(waiting!.nextAttemptAt);

    // Neither the network coming back nor the timer before its time sends it sooner.
    limited = false;
    await outbox.flush();
    clock.advance(29_999);
    await outbox.pump();
    expect(await db.outbox.get(id)).toMatchObject({ status: 'failed', attempts: 1 });

    clock.advance(1);
    await outbox.pump();
    const sent = await db.outbox.get(id);
    expect(sent).toMatchObject({ status: 'sent', attempts: 2, response: { id: 9 } });
    expect(sent?.lastMessage).toBeUndefined();
  });

  it('follows the backoff when a 429 says nothing of when to come back', async () => {
    const { db, clock, outbox } = setup(async (row) => {
      throw new HttpError(429, '429 Too Many Requests', 'POST', row.path, 'Too Many Requests');
    });
    const id = await outbox.enqueue(write());
    const start = clock.now();
    await outbox.start();
    const row = await db.outbox.get(id);
    expect(row).toMatchObject({
      status: 'failed',
      final: false,
      lastStatus: 429,
      nextAttemptAt: start + 1000,
    });
    expect(row?.lastMessage).toBeUndefined();
  });

  it('refreshes the token after a 401 and sends again', async () => {
    let refreshed = 0;
    let calls = 0;
    const { db, outbox } = setup(
      async (row) => {
        calls++;
        if (refreshed === 0) throw new HttpError(401, 'Unauthorized', 'POST', row.path);
        return 'ok';
      },
      async () => {
        refreshed++;
        return true;
      },
    );
    const id = await outbox.enqueue(write());
    await outbox.start();
    expect(await db.outbox.get(id)).toMatchObject({ status: 'sent', attempts: 1 });
    expect([refreshed, calls]).toEqual([1, 2]);
  });

  it('makes a 401 final when the refresh fails', async () => {
    const { db, outbox } = setup(async (row) => {
      throw new HttpError(401, 'Unauthorized', 'POST', row.path);
    });
    const id = await outbox.enqueue(write());
    await outbox.start();
    expect(await db.outbox.get(id)).toMatchObject({ status: 'failed', final: true, lastStatus: 401 });
  });

  it('resumes rows left queued or sending by a worker that died', async () => {
    let started!: () => void;
    const sendStarted = new Promise<void>((resolve) => (started = resolve));
    // The first worker's request never answers: it dies while the row is 'sending'.
    const first = setup(() => {
      started();
      return new Promise(() => undefined);
    });
    const id = await first.outbox.enqueue(write());
    void first.outbox.start();
    await sendStarted;
    expect((await first.db.outbox.get(id))?.status).toBe('sending');
    first.outbox.stop();

    const sent: string[] = [];
    const second = new Outbox({
      db: first.db,
      clock: first.clock,
      send: async (row) => sent.push(row.clientId),
      refreshToken: async () => false,
    });
    await second.start();
    expect(sent).toEqual([id]);
    expect((await first.db.outbox.get(id))?.status).toBe('sent');
  });

  it('flush retries failed rows at once instead of waiting for the backoff', async () => {
    let fail = true;
    const { db, outbox } = setup(async (row) => {
      if (fail) throw new HttpError(0, 'Unknown Error', 'POST', row.path);
      return null;
    });
    const id = await outbox.enqueue(write());
    await outbox.start();
    expect((await db.outbox.get(id))?.status).toBe('failed');
    fail = false;
    await outbox.flush();
    expect((await db.outbox.get(id))?.status).toBe('sent');
  });

  it('retries a server error within 2 s while the child looks, and says it waits', async () => {
    let looking = true;
    const waited: number[] = [];
    const { db, clock, outbox } = setup(
      async (row) => {
        throw new HttpError(500, 'boom', 'POST', row.path);
      },
      undefined,
      { hurry: () => looking, onWaiting: (row) => waited.push(row.lastStatus ?? -1) },
    );
    const id = await outbox.enqueue(write());
    await outbox.start();
    expect(outbox.waiting).toBe(true);
    expect(waited).toEqual([500]);
    // Later attempts would wait 2, 4, 8, 15 s; the child looking, each comes within 2 s.
    for (let attempt = 1; attempt <= 5; attempt++) {
      const row = (await db.outbox.get(id))!;
      expect(row.nextAttemptAt - clock.now()).toBeLessThanOrEqual(2000);
      clock.advance(row.nextAttemptAt - clock.now());
      await outbox.pump();
    }
    expect((await db.outbox.get(id))?.attempts).toBe(6);
    // Out of sight, the backoff holds again.
    looking = false;
    const row = (await db.outbox.get(id))!;
    clock.advance(row.nextAttemptAt - clock.now());
    await outbox.pump();
    const later = (await db.outbox.get(id))!;
    expect(later.nextAttemptAt - clock.now()).toBe(backoffMs(7, () => 0));
  });

  it("keeps a 503's Retry-After even when the network comes back or the child looks", async () => {
    let busy = true;
    const { db, clock, outbox } = setup(
      async (row) => {
        if (busy) throw new HttpError(503, 'busy', 'POST', row.path, null, 20_000);
        return { id: 3 };
      },
      undefined,
      { hurry: () => true },
    );
    const id = await outbox.enqueue(write());
    const start = clock.now();
    await outbox.start();
    expect((await db.outbox.get(id))!.nextAttemptAt).toBeGreaterThanOrEqual(start + 20_000);
    busy = false;
    await outbox.flush();
    clock.advance(19_999);
    await outbox.pump();
    expect(await db.outbox.get(id)).toMatchObject({ status: 'failed', attempts: 1 });
    clock.advance(1);
    await outbox.pump();
    expect(await db.outbox.get(id)).toMatchObject({ status: 'sent', attempts: 2 });
    expect(outbox.waiting).toBe(false);
  });
});
