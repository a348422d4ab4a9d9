import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationMessageWire } from '../../contract/conversations.ts';
import { startFaultProxy, type FaultProxy } from '../../harness/fault-proxy.ts';
import { api } from '../../harness/test-server.ts';
import { MAIL_DEVICE, useCounsellorTestEnv } from './child-helpers.ts';
import { signedInWorker } from './group/group-helpers.ts';
import { valueOf, waitForQuery } from './helpers.ts';
import type { WorkerFixture } from './worker-fixture.ts';

/**
 * The worker core behind the project's fault proxy: the network goes away, a request hangs, the
 * server refuses. What the child sees must say what is happening, and nothing may wait for a timer
 * that the network's return could cut short.
 */
const env = useCounsellorTestEnv();
const PASSWORD = 'blå-ballong-73';
/** Short, so a hung request is given up within the test (the app's own is REQUEST_TIMEOUT_MS). */
const REQUEST_TIMEOUT_MS = 1500;

let proxy: FaultProxy;
beforeAll(async () => {
  proxy = await startFaultProxy({ target: env.server.url });
});
afterEach(() => {
  proxy.clearRules();
  proxy.online();
});
afterAll(async () => proxy?.close());

let children = 0;
async function child(): Promise<WorkerFixture> {
  const username = `natbarn-${process.pid}-${++children}`;
  const registered = await api(env.server.url, '/portal/api/accounts/registercontact', {
    body: { username, password: PASSWORD, properties: { birthYear: '2011', gender: 'female' } },
  });
  expect(registered.status).toBe(201);
  const fixture = await signedInWorker(env.server, username, PASSWORD, {
    origin: proxy.origin,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
  });
  env.fixtures.push(fixture);
  return fixture;
}

const staff = (path: string, body?: unknown) =>
  api(env.server.url, `/portal/staff${path}`, { token: env.counsellor, ...(body ? { body } : {}) });

const serverMessages = async (conversationId: number) =>
  ((await staff(`/conversations/${conversationId}/messages`)).body as { value: ConversationMessageWire[] })
    .value;

/** A mail thread of the child's, open in the worker as on the thread page. */
async function openThread(fixture: WorkerFixture, subject: string): Promise<number> {
  const sent = valueOf(await fixture.worker.commands.sendMail(subject, `${subject}: första`, MAIL_DEVICE));
  if (sent.status !== 'sent') throw new Error(`mail not sent: ${sent.status}`);
  valueOf(await fixture.worker.commands.openConversation(sent.conversationId));
  return sent.conversationId;
}

const messageRow = (fixture: WorkerFixture, clientId: string) =>
  fixture.db.chatMessages.where('clientId').equals(clientId).first();

describe('the worker behind a faulty network', () => {
  it('a hung send waits for the network without holding up another conversation, then goes once', async () => {
    const fixture = await child();
    const first = await openThread(fixture, 'Skolan');
    const second = await openThread(fixture, 'Hemma');

    const hang = proxy.addRule({
      method: 'POST',
      path: '/portal/conversationmessage',
      action: 'hang',
      times: 1,
    });
    const arrived = proxy.waitForRequest({ method: 'POST', path: '/portal/conversationmessage' });
    const stuck = valueOf(await fixture.worker.commands.sendChatMessage(first, 'Fastnar på vägen'));
    await arrived;
    const other = valueOf(await fixture.worker.commands.sendChatMessage(second, 'Går fram direkt'));
    // The other conversation's message is sent while the first one's request still hangs.
    await waitForQuery(
      () => messageRow(fixture, other),
      (row) => row?.sendStatus === 'sent',
    );
    expect((await messageRow(fixture, stuck))?.sendStatus).toBe('sending');

    // Given up after the timeout: the child sees it waits for the network, not 'Skickar...'.
    await waitForQuery(
      () => messageRow(fixture, stuck),
      (row) => row?.sendStatus === 'offline',
    );
    await waitForQuery(
      () => messageRow(fixture, stuck),
      (row) => row?.sendStatus === 'sent',
    );
    const onServer = (await serverMessages(first)).filter((m) => m.message === 'Fastnar på vägen');
    expect(onServer).toHaveLength(1);
    expect(hang.hits).toBe(1);
  });

  it('marks a message sent while offline as waiting for the network and sends it the moment the network is back', async () => {
    const fixture = await child();
    const id = await openThread(fixture, 'Kompisar');
    proxy.offline();
    const clientId = valueOf(await fixture.worker.commands.sendChatMessage(id, 'Skrivet utan nät'));
    await waitForQuery(
      () => messageRow(fixture, clientId),
      (row) => row?.sendStatus === 'offline',
    );
    // Queued behind it, the next one waits for the same network and says so too.
    const next = valueOf(await fixture.worker.commands.sendChatMessage(id, 'Och ett till'));
    expect((await messageRow(fixture, next))?.sendStatus).toBe('offline');
    proxy.online();
    await fixture.worker.onOnline(true);
    for (const sent of [clientId, next]) {
      await waitForQuery(
        () => messageRow(fixture, sent),
        (row) => row?.sendStatus === 'sent',
        3000,
      );
    }
    const texts = (await serverMessages(id)).map((m) => m.message);
    expect(texts.slice(-2)).toEqual(['Skrivet utan nät', 'Och ett till']);
  });

  it("a refused message can be sent again ('Försök igen') or removed ('Ta bort')", async () => {
    const fixture = await child();
    const id = await openThread(fixture, 'Familjen');
    proxy.addRule({
      method: 'POST',
      path: '/portal/conversationmessage',
      action: 'status',
      status: 403,
      times: 2,
    });
    const again = valueOf(await fixture.worker.commands.sendChatMessage(id, 'Prova igen'));
    const gone = valueOf(await fixture.worker.commands.sendChatMessage(id, 'Ta bort mig'));
    for (const clientId of [again, gone]) {
      await waitForQuery(
        () => messageRow(fixture, clientId),
        (row) => row?.sendStatus === 'failed',
      );
    }

    expect(valueOf(await fixture.worker.commands.retryChatMessage(again))).toBe(true);
    await waitForQuery(
      () => messageRow(fixture, again),
      (row) => row?.sendStatus === 'sent',
    );
    expect(valueOf(await fixture.worker.commands.removeChatMessage(gone))).toBe(true);
    expect(await messageRow(fixture, gone)).toBeUndefined();
    expect(await fixture.db.outbox.get(gone)).toBeUndefined();
    // A sent message is neither sent again nor removed.
    expect(valueOf(await fixture.worker.commands.retryChatMessage(again))).toBe(false);
    expect(valueOf(await fixture.worker.commands.removeChatMessage(again))).toBe(false);

    const texts = (await serverMessages(id)).map((m) => m.message);
    expect(texts.filter((t) => t === 'Prova igen')).toHaveLength(1);
    expect(texts).not.toContain('Ta bort mig');
  });

  it('fetches what the counsellor wrote during an outage as soon as the network is back', async () => {
    const fixture = await child();
    const id = await openThread(fixture, 'Kvällen');
    await waitForQuery(
      () => fixture.db.runtime.get('current'),
      (row) => row?.hubState === 'Connected',
    );
    proxy.offline();
    await waitForQuery(
      () => fixture.db.runtime.get('current'),
      (row) => row?.hubState !== 'Connected',
    );
    expect(
      (await staff(`/conversations/${id}/messages`, { content: 'Skrivet under avbrottet' })).status,
    ).toBe(201);
    proxy.online();
    await fixture.worker.onOnline(true);
    // Without a catch-up this would come only with the 45 s refetch.
    await waitForQuery(
      () => fixture.db.chatMessages.where('conversation').equals(id).toArray(),
      (rows) => rows.some((m) => m.message === 'Skrivet under avbrottet'),
      2000,
    );
    expect(fixture.worker.hub.state).toBe('Connected');
  });

  it('fetches what was missed after the hub reconnects on its own', { timeout: 40_000 }, async () => {
    const fixture = await child();
    const id = await openThread(fixture, 'Natten');
    await waitForQuery(
      () => fixture.db.runtime.get('current'),
      (row) => row?.hubState === 'Connected',
    );
    // The socket is cut and reconnects are refused while the counsellor writes: no event reaches us.
    const refuse = proxy.addRule({ path: /^\/hubs\//, action: 'status', status: 503 });
    proxy.cutSockets();
    await waitForQuery(
      () => fixture.db.runtime.get('current'),
      (row) => row?.hubState !== 'Connected',
    );
    await staff(`/conversations/${id}/messages`, { content: 'Skrivet medan hubben var nere' });
    await proxy.waitForRequest({ path: /^\/hubs\// });
    refuse.remove();
    // SignalR's next reconnect (2 s or 10 s later) brings the catch-up; an open thread has no poll.
    await waitForQuery(
      () => fixture.db.chatMessages.where('conversation').equals(id).toArray(),
      (rows) => rows.some((m) => m.message === 'Skrivet medan hubben var nere'),
      20_000,
    );
    expect(refuse.hits).toBeGreaterThan(0);
  });
});
