import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { PortalDb } from '../../../worker/base/db.ts';
import { HttpError } from '../../../worker/http/http-error.ts';
import { Outbox } from '../../../worker/outbox/outbox.ts';
import { ManualClock, uniqueName, waitForQuery } from '../helpers.ts';
import { createWorker, useWorkerTestServer, type WorkerFixture } from '../worker-fixture.ts';

/*
 * A worker that died while a write waited out its backoff: the new worker starts on what it left
 * in IndexedDB. The clocks here never move, so nothing is sent by a backoff timer: whatever is
 * sent, the start sent.
 */
const env = useWorkerTestServer();

const countLogs = async (message: string) =>
  (await env.server.ctx.db.selectFrom('client_logs').select('id').where('message', '=', message).execute())
    .length;

describe('the outbox of a replaced worker', () => {
  it('sends at once on start what the old worker left waiting for the network, not after its backoff', async () => {
    const clock = new ManualClock();
    const network = { up: true };
    const fetchFn: typeof fetch = (input, init) =>
      network.up ? fetch(input, init) : Promise.reject(new TypeError('fetch failed'));
    const first = await createWorker(env.server, { clock, fetch: fetchFn });
    env.fixtures.push(first);
    await first.worker.start(true);
    expect(await first.worker.login('demo', 'demo-losenord')).toEqual({ ok: true });

    // The server cannot be reached: the write fails and waits for its backoff.
    network.up = false;
    const message = `outbox-after-restart-${Date.now()}`;
    const clientId = await first.worker.enqueue({
      kind: 'clientlog',
      path: '/createclientlogs',
      body: { message },
    });
    const waiting = await waitForQuery(
      () => first.db.outbox.get(clientId),
      (row) => row?.status === 'failed',
    );
    expect(waiting).toMatchObject({ final: false, attempts: 1, lastStatus: 0 });
    expect(waiting!.nextAttemptAt).toBeGreaterThan(clock.now());

    // The worker dies; the server can be reached again; a new worker starts on the same data.
    await first.worker.retire();
    network.up = true;
    let second: WorkerFixture | undefined;
    try {
      second = await createWorker(env.server, { clock, fetch: fetchFn, sameDataAs: first });
      await second.worker.start(true);
      const sent = await waitForQuery(
        () => first.db.outbox.get(clientId),
        (row) => row?.status === 'sent',
      );
      expect(sent).toMatchObject({ attempts: 2 });
      expect(clock.now()).toBeLessThan(waiting!.nextAttemptAt);
      expect(await countLogs(message)).toBe(1);
    } finally {
      // Before the first fixture deletes the databases it lends.
      await second?.dispose();
    }
  });

  it("still waits out a 429's Retry-After: that wait is the server's, not the old worker's", async () => {
    const db = new PortalDb(uniqueName('outbox'));
    const clock = new ManualClock();
    try {
      const limited = new Outbox({
        db,
        clock,
        send: async (row) => {
          throw new HttpError(429, '429', 'POST', row.path, { error: 'rate_limited' }, 30_000);
        },
        refreshToken: async () => false,
      });
      const id = await limited.enqueue({ kind: 'clientlog', path: '/createclientlogs', body: {} });
      await limited.start();
      limited.stop();
      const sent: string[] = [];
      const next = new Outbox({
        db,
        clock,
        send: async (row) => sent.push(row.clientId),
        refreshToken: async () => false,
      });
      await next.start();
      expect(sent).toEqual([]);
      expect(await db.outbox.get(id)).toMatchObject({ status: 'failed', attempts: 1, lastStatus: 429 });
      clock.advance(30_000);
      await next.pump();
      expect(sent).toEqual([id]);
      next.stop();
    } finally {
      await db.delete();
    }
  });
});
