import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chatEntries, sendStatusText } from '../../src/chat-window/chat-messages.ts';
import type { MailDeviceInfo, SentMail } from '../../worker/base/mail-and-history.ts';
import { RATE_LIMITS } from '../../server/security/rate-limiter.ts';
import { api, startTestServer, type TestServer } from '../../harness/test-server.ts';
import { ManualClock, valueOf, waitForQuery } from './helpers.ts';
import { createWorker, type WorkerFixture } from './worker-fixture.ts';

/*
 * The content limits at their production figures (10 mails an hour, 30 chat messages a minute per
 * account): what the child's worker makes of the server's 429, its Retry-After and its Swedish text.
 */
const RATE_LIMITED = 'Du har skickat många gånger på kort tid. Vänta en stund och försök igen.';
const PASSWORD = 'blå-ballong-73';
const HOUR = 3600_000;
const DEVICE: MailDeviceInfo = { userAgent: 'Mozilla/5.0', platform: 'Linux x86_64', installed: false };

let server: TestServer;
const fixtures: WorkerFixture[] = [];
beforeAll(async () => {
  server = await startTestServer({ config: { rateLimitFactor: 1 } });
});
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((f) => f.dispose()));
});
afterAll(async () => server?.dispose());

async function child(clock?: ManualClock) {
  const username = `barn-${randomUUID().slice(0, 8)}`;
  const registered = await api(server.url, '/portal/api/accounts/registercontact', {
    body: { username, password: PASSWORD, properties: {} },
  });
  expect(registered.status).toBe(201);
  const fixture = await createWorker(server, clock ? { clock } : {});
  fixtures.push(fixture);
  await fixture.worker.start(true);
  expect(await fixture.worker.login(username, PASSWORD)).toEqual({ ok: true });
  return fixture;
}

describe('writes the server asks to wait with (429)', () => {
  it('keeps a mail over the hourly limit, answers with the server’s words and does not hurry it', async () => {
    const { worker, db } = await child();
    let result: SentMail | null = null;
    // The server's bucket holds an hour's mails and gets one back each sixth of that hour.
    const started = Date.now();
    for (let i = 0; i <= RATE_LIMITS.mail.perAccount.count && result?.status !== 'waiting'; i++) {
      result = valueOf(await worker.commands.sendMail(`Fråga ${i}`, 'Hej!', DEVICE));
    }
    expect(result).toMatchObject({ status: 'waiting', message: RATE_LIMITED });
    const clientId = result?.status === 'waiting' ? result.clientId : '';
    const row = await db.outbox.get(clientId);
    expect(row).toMatchObject({
      status: 'failed',
      final: false,
      attempts: 1,
      lastStatus: 429,
      lastMessage: RATE_LIMITED,
    });
    // Not before the server has a mail's token back (its Retry-After), however soon the backoff would be.
    expect(row!.nextAttemptAt).toBeGreaterThanOrEqual(started + HOUR / RATE_LIMITS.mail.perAccount.count);

    await worker.flushOutbox();
    expect(await db.outbox.get(clientId)).toMatchObject({ status: 'failed', attempts: 1 });
  });

  it('shows a chat message over the limit as waiting with the server’s words, then sends it in order', async () => {
    const clock = new ManualClock();
    const { worker, db } = await child(clock);
    const mail = valueOf(await worker.commands.sendMail('Tråden', 'Hej!', DEVICE));
    const conversationId = mail.status === 'sent' ? mail.conversationId : -1;
    const settledRow = (clientId: string) =>
      waitForQuery(
        () => db.chatMessages.where('clientId').equals(clientId).first(),
        (r) => r?.sendStatus === 'sent' || r?.sendStatus === 'waiting',
      );

    let waitingId = '';
    // 30 at once, then one each 2 s: the loop reaches the limit well within that.
    for (let i = 0; i < 61 && !waitingId; i++) {
      const clientId = valueOf(await worker.commands.sendChatMessage(conversationId, `Svar ${i}`));
      if ((await settledRow(clientId))?.sendStatus === 'waiting') waitingId = clientId;
    }
    const waiting = await db.chatMessages.get(`local:${waitingId}`);
    expect(waiting).toMatchObject({ id: null, sendStatus: 'waiting', sendNotice: RATE_LIMITED });
    const [entry] = chatEntries([waiting!], (await db.profile.get('current'))?.contactId);
    expect(sendStatusText(entry!)).toBe(RATE_LIMITED);

    // Written meanwhile: it waits its turn behind the first (one lane per conversation).
    const later = valueOf(await worker.commands.sendChatMessage(conversationId, 'Och en sak till'));
    expect((await db.chatMessages.get(`local:${later}`))?.sendStatus).toBe('sending');

    // The server's bucket has refilled (here: its buckets are cleared) and the worker's clock reaches
    // the Retry-After: both are sent, in order, without anyone asking.
    const due = (await db.outbox.get(waitingId))!.nextAttemptAt;
    expect(due).toBeGreaterThan(clock.now());
    await server.ctx.db.deleteFrom('rate_buckets').execute();
    clock.advance(due - clock.now());
    const sent = await waitForQuery(
      () => db.chatMessages.where('conversation').equals(conversationId).toArray(),
      (rows) =>
        [waitingId, later].every((id) => rows.some((r) => r.clientId === id && r.sendStatus === 'sent')),
    );
    const order = sent
      .filter((r) => r.clientId === waitingId || r.clientId === later)
      .sort((a, b) => a.id! - b.id!)
      .map((r) => r.clientId);
    expect(order).toEqual([waitingId, later]);
    expect(sent.find((r) => r.clientId === waitingId)?.sendNotice).toBeUndefined();
  });
});
