import type { AuthDb } from '../../worker/auth/user-store.ts';
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { api, startTestServer } from '../../harness/test-server.ts';
import { ManualClock, waitForQuery } from './helpers.ts';
import { SESSION_CHECK_INTERVAL_MS } from '../../contract/timings.ts';
import { createWorker, useWorkerTestServer } from './worker-fixture.ts';

/** The stored user (its tokens), beside the device token the auth store also keeps. */
const userItems = async (authDb: AuthDb) =>
  (await authDb.items.toArray()).filter((item) => item.key.startsWith('user:'));

const env = useWorkerTestServer();
/** Something of the signed-in user's that a sign-out or another user's sign-in must not leave behind. */
const NOTIFICATION = {
  id: 1,
  entity: 'Conversation:1',
  notificationType: 'NewMessage',
  isProcessed: false,
  createdDate: '2026-01-01T00:00:00.000Z',
};

async function worker(clock?: ManualClock) {
  const fixture = await createWorker(env.server, clock ? { clock } : {});
  env.fixtures.push(fixture);
  return fixture;
}

const revoke = (token: string, hint: 'access_token' | 'refresh_token') =>
  fetch(`${env.server.url}/connect/revocation`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token, token_type_hint: hint, client_id: 'portal-web' }),
  });

describe('session lifecycle of the data worker', () => {
  it('starts signed out when no user is stored', async () => {
    const { worker: w, db, broadcasts } = await worker();
    await w.start(true);
    expect(await db.session.get('current')).toMatchObject({ status: 'anonymous' });
    expect(broadcasts).toEqual([]);
    expect(w.hub.state).toBe('Disconnected');
  });

  it('signs in: session, profile, hub connected, notification count tolerated as 404', async () => {
    const { worker: w, db } = await worker();
    await w.start(true);
    expect(await w.login('demo', 'demo-losenord')).toEqual({ ok: true });
    expect(await db.session.get('current')).toMatchObject({ status: 'authenticated' });
    expect(await db.profile.get('current')).toMatchObject({ contactId: expect.any(Number) });
    await waitForQuery(
      () => db.runtime.get('current'),
      (row) => row?.hubState === 'Connected',
    );
    expect((await db.runtime.get('current'))?.notificationCount).toBe(0);
  });

  it('reports wrong credentials without touching the session', async () => {
    const { worker: w, db } = await worker();
    expect(await w.login('demo', 'inte-ratt')).toEqual({ ok: false, code: 'invalid_username_or_password' });
    expect(await db.session.get('current')).toBeUndefined();
  });

  it('answers offline to a login while the server cannot be reached', async () => {
    const gone = await startTestServer();
    const fixture = await createWorker(gone);
    env.fixtures.push(fixture);
    await gone.dispose();
    expect(await fixture.worker.login('demo', 'demo-losenord')).toEqual({ ok: false, code: 'offline' });
    expect(await fixture.db.session.get('current')).toBeUndefined();
  });

  it('keeps the session when a second login attempt fails', async () => {
    const { worker: w, db } = await worker();
    await w.start(true);
    await w.login('demo', 'demo-losenord');
    expect(await w.login('demo', 'fel')).toEqual({ ok: false, code: 'invalid_username_or_password' });
    expect(await db.session.get('current')).toMatchObject({ status: 'authenticated' });
    expect(await w.auth.check()).toBe(true);
  });

  it("clears the previous user's data when another user signs in over the session", async () => {
    const { worker: w, db } = await worker();
    await w.start(true);
    await w.login('demo', 'demo-losenord');
    await db.notifications.put(NOTIFICATION);
    expect(await w.login('DEMOKOD-0001', null)).toEqual({ ok: true });
    expect(await db.notifications.count()).toBe(0);
    expect((await db.profile.get('current'))?.username).not.toBe('Demo');
  });

  it('signs out with session_expired when the profile answers 401', async () => {
    const { worker: w, db, broadcasts } = await worker();
    await w.start(true);
    await w.login('demo', 'demo-losenord');
    const token = (await w.auth.manager.getUser())!.access_token;
    await revoke(token, 'access_token');
    await w.becameVisible();
    expect(await db.session.get('current')).toMatchObject({
      status: 'anonymous',
      signOutReason: 'session_expired',
    });
    expect(await db.profile.count()).toBe(0);
    expect(broadcasts).toContainEqual({ type: 'signed-out', reason: 'session_expired' });
    expect(await w.auth.manager.getUser()).toBeNull();
    expect(w.hub.state).toBe('Disconnected');
  });

  it('leaves no spent token behind when a session ends without a refresh token', async () => {
    const { worker: w, db, authDb } = await worker();
    await w.start(true);
    await w.login('demo', 'demo-losenord');
    const user = (await w.auth.manager.getUser())!;
    user.refresh_token = undefined;
    user.expires_at = Math.floor(Date.now() / 1000) - 60;
    await w.auth.manager.storeUser(user);
    expect(await userItems(authDb)).toHaveLength(1);

    await w.becameVisible();
    expect(await db.session.get('current')).toMatchObject({ status: 'anonymous' });
    expect(await userItems(authDb)).toEqual([]);
  });

  it('logs out: revokes, stops the hub, clears data and tells every tab', async () => {
    const { worker: w, db, broadcasts } = await worker();
    await w.start(true);
    await w.login('demo', 'demo-losenord');
    await db.notifications.put(NOTIFICATION);
    await w.enqueue({ kind: 'x', path: '/nowhere', body: {} });
    const token = (await w.auth.manager.getUser())!.access_token;
    await w.logout();
    expect(await db.session.get('current')).toMatchObject({ status: 'anonymous', signOutReason: 'user' });
    expect([await db.profile.count(), await db.notifications.count(), await db.outbox.count()]).toEqual([
      0, 0, 0,
    ]);
    expect(broadcasts).toContainEqual({ type: 'signed-out', reason: 'user' });
    expect((await api(env.server.url, '/portal/accounts', { token })).status).toBe(401);
    expect((await db.runtime.get('current'))?.hubState).toBe('Disconnected');
  });

  it('refreshes the token at 0.75 of its lifetime on its own', async () => {
    const clock = new ManualClock();
    const { worker: w, authDb } = await worker(clock);
    await w.start(true);
    await w.login('demo', 'demo-losenord');
    const before = (await w.auth.manager.getUser())!;
    const due = before.expires_at! * 1000 - 0.25 * 15 * 60_000;
    expect(clock.dueTimes()).toContain(due);
    clock.advance(due - clock.now());
    await waitForQuery(
      () => userItems(authDb),
      (items) => items.length === 1 && !items[0]!.value.includes(before.access_token),
    );
    const after = (await w.auth.manager.getUser())!;
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect((await api(env.server.url, '/portal/accounts', { token: after.access_token })).status).toBe(200);
  });

  it('ends its session within 3 s when the tokens leave the shared store elsewhere (SPEC §9 session check)', async () => {
    const clock = new ManualClock();
    const { worker: w, db, authDb, broadcasts } = await worker(clock);
    await w.start(true);
    await w.login('demo', 'demo-losenord');
    // Another worker of this browser signed out, and its message never came.
    await authDb.items.clear();
    clock.advance(SESSION_CHECK_INTERVAL_MS - 1);
    expect(await db.session.get('current')).toMatchObject({ status: 'authenticated' });
    clock.advance(1);
    await waitForQuery(
      () => db.session.get('current'),
      (row) => row?.status === 'anonymous',
    );
    expect(await db.profile.count()).toBe(0);
    expect(broadcasts).toContainEqual({ type: 'signed-out', reason: 'session_expired' });
    expect(w.hub.state).toBe('Disconnected');
  });

  it("runs the new user's session when another worker signed someone else in over it", async () => {
    const clock = new ManualClock();
    const { worker: w, db } = await worker(clock);
    await w.start(true);
    await w.login('demo', 'demo-losenord');
    await db.notifications.put(NOTIFICATION);
    const demo = (await db.profile.get('current'))!;
    const other = await worker();
    await other.worker.login('DEMOKOD-0001', null);
    await w.auth.manager.storeUser((await other.worker.auth.manager.getUser())!);

    clock.advance(SESSION_CHECK_INTERVAL_MS);
    const profile = await waitForQuery(
      () => db.profile.get('current'),
      (row) => row !== undefined && row.contactId !== demo.contactId,
    );
    expect(profile?.username).not.toBe(demo.username);
    expect(await db.notifications.count()).toBe(0);
    expect(await db.session.get('current')).toMatchObject({ status: 'authenticated' });
  });

  it('starts signed out when the stored refresh token is no longer accepted', async () => {
    const first = await worker();
    await first.worker.login('demo', 'demo-losenord');
    const user = (await first.worker.auth.manager.getUser())!;
    await revoke(user.refresh_token!, 'refresh_token');
    await first.worker.start(true);
    expect(await first.db.session.get('current')).toMatchObject({ status: 'anonymous' });
    expect(await first.worker.auth.manager.getUser()).toBeNull();
  });

  it('becameVisible with a valid token starts the hub again', async () => {
    const { worker: w, db } = await worker();
    await w.start(true);
    await w.login('demo', 'demo-losenord');
    await w.hub.stop();
    expect(w.hub.state).toBe('Disconnected');
    await w.becameVisible();
    expect(w.hub.state).toBe('Connected');
    expect((await db.runtime.get('current'))?.hubState).toBe('Connected');
  });
});
