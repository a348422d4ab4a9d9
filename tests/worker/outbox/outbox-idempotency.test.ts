import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../harness/test-server.ts';
import { createWorker, type WorkerFixture } from '../worker-fixture.ts';

let server: TestServer;
let fixture: WorkerFixture;
beforeAll(async () => {
  server = await startTestServer();
  fixture = await createWorker(server);
  await fixture.worker.start(true);
  expect(await fixture.worker.login('demo', 'demo-losenord')).toEqual({ ok: true });
});
afterAll(async () => {
  await fixture?.dispose();
  await server?.dispose();
});

const countLogs = async (message: string) =>
  (await server.ctx.db.selectFrom('client_logs').select('id').where('message', '=', message).execute())
    .length;

describe('outbox against the real server', () => {
  it('sends a row again after a lost answer without creating a second log row', async () => {
    const { worker, db } = fixture;
    const message = `outbox-idempotency-${Date.now()}`;
    const clientId = await worker.enqueue({
      kind: 'clientlog',
      path: '/createclientlogs',
      body: { message, url: 'https://x.example/a?secret=1' },
    });
    await worker.outbox.pump();
    expect(await db.outbox.get(clientId)).toMatchObject({ status: 'sent', response: { success: true } });
    expect(await countLogs(message)).toBe(1);

    // The answer was lost on the way back: the worker only knows the row as queued and sends again.
    await db.outbox.update(clientId, { status: 'queued', response: undefined });
    await worker.outbox.pump();
    expect(await db.outbox.get(clientId)).toMatchObject({
      status: 'sent',
      attempts: 2,
      response: { success: true },
    });
    expect(await countLogs(message)).toBe(1);
  });

  it('fails for good when the same key comes with another body (422)', async () => {
    const { worker, db } = fixture;
    const clientId = await worker.enqueue({
      kind: 'clientlog',
      path: '/createclientlogs',
      body: { message: `first-${Date.now()}` },
    });
    await worker.outbox.pump();
    await db.outbox.update(clientId, { status: 'queued', body: { message: 'something else' } });
    await worker.outbox.pump();
    expect(await db.outbox.get(clientId)).toMatchObject({ status: 'failed', final: true, lastStatus: 422 });
  });
});
