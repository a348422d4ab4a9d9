import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy } from '../../harness/fault-proxy.ts';
import { api } from '../../harness/test-server.ts';
import { MAIL_DEVICE, useCounsellorTestEnv } from './child-helpers.ts';
import { signedInWorker } from './group/group-helpers.ts';
import { valueOf, waitForQuery } from './helpers.ts';
import type { WorkerFixture } from './worker-fixture.ts';

/**
 * A network that lies: the sockets go silent without a close while everything says online (a weak
 * mobile signal, Wi-Fi without internet), then the network returns. SignalR alone notices after
 * 30 s, and a start made into the dead line hangs; the worker's liveness check
 * (worker/hub/liveness.ts) must find the loss in seconds while the child looks at a live chat, and
 * the line's return in one, and fetch what was missed by cursor.
 */
const env = useCounsellorTestEnv();
const PASSWORD = 'tyst-linje-58';
const TAB = 'flik-1';

let proxy: FaultProxy;
beforeAll(async () => {
  proxy = await startFaultProxy({ target: env.server.url });
});
afterEach(() => {
  proxy.speak();
  proxy.clearRules();
});
afterAll(async () => proxy?.close());

let children = 0;
/** A child behind the proxy with a conversation open and in view in a visible tab. */
async function childLooking(): Promise<{ fixture: WorkerFixture; id: number }> {
  const username = `tystbarn-${process.pid}-${++children}`;
  const registered = await api(env.server.url, '/portal/api/accounts/registercontact', {
    body: { username, password: PASSWORD, properties: { birthYear: '2010', gender: 'male' } },
  });
  expect(registered.status).toBe(201);
  const fixture = await signedInWorker(env.server, username, PASSWORD, { origin: proxy.origin });
  env.fixtures.push(fixture);
  const sent = valueOf(await fixture.worker.commands.sendMail('Ikväll', 'Ikväll: första', MAIL_DEVICE));
  if (sent.status !== 'sent') throw new Error(`mail not sent: ${sent.status}`);
  valueOf(await fixture.worker.commands.openConversation(sent.conversationId));
  valueOf(await fixture.worker.commands.tabVisibility(TAB, true));
  valueOf(await fixture.worker.commands.chatInView(TAB, true));
  await waitForQuery(
    () => fixture.db.runtime.get('current'),
    (row) => row?.hubState === 'Connected',
  );
  return { fixture, id: sent.conversationId };
}

const counsellorWrites = async (id: number, content: string) =>
  expect(
    (
      await api(env.server.url, `/portal/staff/conversations/${id}/messages`, {
        token: env.counsellor,
        body: { content },
      })
    ).status,
  ).toBe(201);

const shown = (fixture: WorkerFixture, id: number, content: string, timeoutMs: number) =>
  waitForQuery(
    () => fixture.db.chatMessages.where('conversation').equals(id).toArray(),
    (rows) => rows.some((m) => m.message === content),
    timeoutMs,
  );

describe('a silent loss while the child looks at a live chat', () => {
  it('is noticed within seconds, and what was missed is there within 2 s of the network’s return', async () => {
    const { fixture, id } = await childLooking();
    const silentAt = Date.now();
    proxy.silence();
    // SignalR's own keep-alive would say 'Connected' for 30 s.
    await waitForQuery(
      () => fixture.db.runtime.get('current'),
      (row) => row?.hubState !== 'Connected',
      5000,
    );
    expect(Date.now() - silentAt).toBeLessThan(4000);
    await counsellorWrites(id, 'Skrivet i tystnaden');
    // A start was made into the dead line meanwhile, and hangs there.
    await proxy.waitForRequest({ path: /^\/(hubs|healthz)/ }, 5000);

    const back = Date.now();
    proxy.speak();
    await shown(fixture, id, 'Skrivet i tystnaden', 2000);
    const missedAfterMs = Date.now() - back;
    expect(missedAfterMs).toBeLessThanOrEqual(2000);
    await waitForQuery(
      () => fixture.db.runtime.get('current'),
      (row) => row?.hubState === 'Connected',
      3000,
    );
    // The new connection carries events again.
    await counsellorWrites(id, 'Efter tystnaden');
    await shown(fixture, id, 'Efter tystnaden', 3000);
  });

  it('a short loss (a flap of 2 s) costs at most 3 s once the network is back', async () => {
    const { fixture, id } = await childLooking();
    proxy.silence();
    await counsellorWrites(id, 'Under fladdret');
    // The loss lasts until the liveness check's pings have gone unanswered for a while.
    await proxy.waitForRequest({ path: /^\/(hubs|healthz)/ }, 5000).catch(() => undefined);
    const back = Date.now();
    proxy.speak();
    await shown(fixture, id, 'Under fladdret', 3000);
    expect(Date.now() - back).toBeLessThanOrEqual(3000);
  });

  it('a send that meets server errors waits as for the network, is told so, and goes within 2 s of recovery', async () => {
    const { fixture, id } = await childLooking();
    // The server answers every call with 500 (the hub's start and the health check too).
    const failing = proxy.addRule({ path: /^\/(portal|hubs|healthz)/, action: 'status', status: 500 });
    const clientId = valueOf(await fixture.worker.commands.sendChatMessage(id, 'Medan servern krånglar'));
    const row = await waitForQuery(
      () => fixture.db.chatMessages.where('clientId').equals(clientId).first(),
      (r) => r?.sendStatus === 'offline',
      15_000,
    );
    expect(row?.sendStatus).toBe('offline');
    await waitForQuery(
      () => fixture.db.runtime.get('current'),
      (r) => r?.serverTrouble === true,
      15_000,
    );
    // A few attempts more, while it still fails.
    const hitsBefore = failing.hits;
    await waitForQuery(
      () => fixture.db.outbox.get(clientId),
      (r) => (r?.attempts ?? 0) >= 3,
      15_000,
    );
    expect(failing.hits).toBeGreaterThan(hitsBefore);

    const recovered = Date.now();
    failing.remove();
    await waitForQuery(
      () => fixture.db.chatMessages.where('clientId').equals(clientId).first(),
      (r) => r?.sendStatus === 'sent',
      2000,
    );
    expect(Date.now() - recovered).toBeLessThanOrEqual(2000);
    await waitForQuery(
      () => fixture.db.runtime.get('current'),
      (r) => r?.serverTrouble === false,
      2000,
    );
  });
});
