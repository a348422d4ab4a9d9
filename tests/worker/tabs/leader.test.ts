import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpTransportType } from '@microsoft/signalr';
import { AuthDb, DexieStateStore } from '../../../worker/auth/user-store.ts';
import { PortalDb } from '../../../worker/base/db.ts';
import { noLock, systemClock } from '../../../worker/clock.ts';
import { loadRuntimeConfig } from '../../../worker/config.ts';
import { PortalWorker, type PeerMessage } from '../../../worker/portal-worker.ts';
import { api, login, startTestServer, type TestServer } from '../../../harness/test-server.ts';
import { startFaultProxy } from '../../../harness/fault-proxy.ts';
import { uniqueName, valueOf, waitForQuery } from '../helpers.ts';
import { MAIL_DEVICE } from '../child-helpers.ts';
import { outcomeOf } from '../../../worker/base/result.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.dispose());

/**
 * The dedicated-worker fallback: one worker per tab over the same two databases, talking over a
 * (here: in-memory) peer channel. Only the leader holds the hub and sends the outbox.
 */
async function twoTabs(origin = server.url) {
  const dataName = uniqueName('portal-data');
  const authName = uniqueName('portal-auth');
  const config = await loadRuntimeConfig(origin);
  const workers: PortalWorker[] = [];
  /** Peer deliveries still running, so a test can wait until the leader has acted on them. */
  const deliveries: Promise<void>[] = [];
  const make = () => {
    const db = new PortalDb(dataName);
    const worker: PortalWorker = new PortalWorker({
      config,
      origin,
      db,
      userStore: new DexieStateStore(new AuthDb(authName)),
      fetch: (input, init) => fetch(input, init),
      clock: systemClock,
      withLock: noLock,
      broadcast: () => undefined,
      hub: { transport: HttpTransportType.WebSockets },
      notifyPeers: (message: PeerMessage) => {
        for (const other of workers) if (other !== worker) deliveries.push(other.onPeerMessage(message));
      },
    });
    workers.push(worker);
    return { worker, db };
  };
  return { leader: make(), follower: make(), delivered: () => Promise.all(deliveries.splice(0)) };
}
type Tab = { worker: PortalWorker; db: PortalDb };

/** Both tabs started, the first as leader; the follower signs in and sees the leader's hub connected. */
async function followerSignedIn(leader: Tab, follower: Tab) {
  await leader.worker.start(true);
  await follower.worker.start(false);
  expect(await follower.worker.login('demo', 'demo-losenord')).toEqual({ ok: true });
  await waitForQuery(
    () => follower.db.runtime.get('current'),
    (row) => row?.hubState === 'Connected',
  );
}

/** The demo user is renamed on the server; resolves once `db` (a tab's Dexie) shows the new name. */
async function renameOnServerAndSee(db: PortalDb, name: string) {
  const { access_token } = await login(server.url, 'demo', 'demo-losenord');
  await api(server.url, '/portal/features/contacts/contactsapplicationfeature-id/update', {
    token: access_token,
    body: { name },
  });
  await waitForQuery(
    () => db.profile.get('current'),
    (row) => row?.username === name,
  );
}

describe('leader election fallback', () => {
  it('the leader holds the hub for a follower that signs in, sends its outbox and takes its subscriptions', async () => {
    const { leader, follower, delivered } = await twoTabs();
    await leader.worker.start(true);
    await follower.worker.start(false);

    expect(await follower.worker.login('demo', 'demo-losenord')).toEqual({ ok: true });
    expect(follower.worker.hub.state).toBe('Disconnected');
    await waitForQuery(
      () => follower.db.runtime.get('current'),
      (row) => row?.hubState === 'Connected',
    );
    expect(leader.worker.hub.state).toBe('Connected');

    const message = `leader-outbox-${Date.now()}`;
    const id = await follower.worker.enqueue({ kind: 'log', path: '/createclientlogs', body: { message } });
    await waitForQuery(
      () => follower.db.outbox.get(id),
      (row) => row?.status === 'sent',
    );

    const profile = (await follower.db.profile.get('current'))!;
    expect(await follower.worker.subscribe(`Contact:${profile.contactId}`)).toBe(true);
    // The leader subscribed on the follower's behalf: the follower's Dexie sees the refetch.
    await delivered();
    await renameOnServerAndSee(follower.db, `Första fliken ${Date.now()}`);

    // The leader's tab closes; the follower wins the lock and takes the hub over.
    await leader.worker.retire();
    await follower.worker.becomeRunner();
    expect(follower.worker.hub.state).toBe('Connected');
    await follower.worker.logout();
    expect(follower.worker.hub.state).toBe('Disconnected');
    expect(await follower.db.session.get('current')).toMatchObject({ status: 'anonymous' });
  });

  it('a follower that takes the hub over fetches what came while no tab held it', async () => {
    const { leader, follower } = await twoTabs();
    await followerSignedIn(leader, follower);
    const subject = `Medan ingen flik ${Date.now()}`;
    const sent = valueOf(
      await follower.worker.commands.sendMail(subject, 'Hej, jag undrar en sak.', MAIL_DEVICE),
    );
    const id = sent.status === 'sent' ? sent.conversationId : -1;
    expect(outcomeOf(await follower.worker.commands.openConversation(id))).toBe('ok');

    // The leader's tab closes: until the follower wins the lock, no tab holds the hub.
    await leader.worker.retire();
    const counsellor = (await login(server.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token;
    const answer = await api(server.url, `/portal/staff/conversations/${id}/messages`, {
      token: counsellor,
      body: { content: 'Svar medan ingen lyssnade' },
    });
    expect(answer.status).toBe(201);
    await follower.worker.becomeRunner();
    // Within the few seconds of a catch-up, not the 45 s refetch (waitForQuery gives up after 10 s).
    await waitForQuery(
      () => follower.db.chatMessages.where('conversation').equals(id).toArray(),
      (rows) => rows.some((row) => row.message === 'Svar medan ingen lyssnade'),
    );
    await follower.worker.logout();
  });

  it('a follower elected while the network is down starts the hub as soon as the network is back', async () => {
    const proxy = await startFaultProxy({ target: server.url });
    try {
      const { leader, follower } = await twoTabs(proxy.origin);
      await followerSignedIn(leader, follower);

      // Offline, the leader's tab closes and the follower wins the lock: no server to ask.
      proxy.offline();
      await leader.worker.retire();
      await follower.worker.becomeRunner();
      expect(follower.worker.hub.state).not.toBe('Connected');

      proxy.online();
      await follower.worker.onOnline(true);
      expect(follower.worker.hub.state).toBe('Connected');
      // The Contact subscription holds again: a change on the server reaches this tab's Dexie.
      await renameOnServerAndSee(follower.db, `Tillbaka ${Date.now()}`);
      await follower.worker.logout();
    } finally {
      await proxy.close();
    }
  });
});
