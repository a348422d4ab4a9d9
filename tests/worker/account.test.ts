import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { WorkerCommands } from '../../worker/client/api.ts';
import {
  CLIENT_ID,
  api,
  login,
  startTestServer,
  tokenRequest,
  type TestServer,
} from '../../harness/test-server.ts';
import { NOTIFICATIONS_DAYS } from '../../contract/limits.ts';
import { ManualClock, waitForQuery } from './helpers.ts';
import { createWorker, type WorkerFixture } from './worker-fixture.ts';
import { outcomeOf } from '../../worker/base/result.ts';

/*
 * The server allows 5 registrations per client address in 15 minutes, so each group of tests gets a
 * server of its own.
 */
const PASSWORD = 'blå-ballong-73';
const fixtures: WorkerFixture[] = [];

afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((f) => f.dispose()));
});

/** Every request the worker makes, with whether it carried a bearer token. */
function recordingFetch() {
  const calls: { url: string; bearer: boolean }[] = [];
  const fetchFn: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    calls.push({ url: String(input), bearer: headers.has('Authorization') });
    return fetch(input, init);
  };
  return { calls, fetchFn };
}

async function startedWorker(server: TestServer, fetchFn?: typeof fetch) {
  const fixture = await createWorker(server, fetchFn ? { fetch: fetchFn } : {});
  fixtures.push(fixture);
  await fixture.worker.start(true);
  return { ...fixture, account: fixture.worker.commands };
}

async function registered(account: WorkerCommands, username: string) {
  expect(await account.register({ username, password: PASSWORD, properties: {} })).toEqual({ ok: true });
}

describe('registration and password', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server?.dispose());

  it('registers with public calls, logs in, and refuses a taken username', async () => {
    const recorder = recordingFetch();
    const { account, db } = await startedWorker(server, recorder.fetchFn);

    expect(await account.verifyUsername('ny.anvandare')).toEqual({ ok: true, value: 'available' });
    expect(
      await account.register({
        username: 'Ny.Anvandare',
        password: PASSWORD,
        properties: { birthYear: '2011', gender: 'non-binary', unknownProperty: 'x' },
      }),
    ).toEqual({ ok: true });

    expect((await db.session.get('current'))?.status).toBe('authenticated');
    const profile = await db.profile.get('current');
    // The login name is the child's alone; the name others see is none until one is chosen.
    expect(profile?.loginName).toBe('ny.anvandare');
    expect(profile?.username).toBe('');
    expect(profile?.properties).toEqual({ birthYear: '2011', gender: 'non-binary' });
    expect(await account.setDisplayName('NY.ANVANDARE')).toEqual({ ok: false, code: 'name_not_allowed' });
    expect(await account.setDisplayName('Kurator Kim')).toEqual({ ok: false, code: 'name_not_allowed' });
    expect(await account.setDisplayName(' Molnet ')).toEqual({ ok: true, value: undefined });
    expect((await db.profile.get('current'))?.username).toBe('Molnet');

    // Signed in now, the public calls still carry no user token.
    expect(await account.verifyUsername('ny.anvandare')).toEqual({ ok: true, value: 'taken' });
    const accountCalls = recorder.calls.filter((c) => c.url.includes('/api/accounts/'));
    expect(accountCalls.length).toBe(3);
    expect(accountCalls.every((c) => !c.bearer)).toBe(true);

    // Someone else with the name: their password is another, so the name is taken.
    expect(
      await account.register({ username: 'ny.anvandare', password: 'en-annan-ballong-19', properties: {} }),
    ).toEqual({ ok: false, code: 'username_taken' });
  });

  it('signs in, instead of calling the name taken, when the first registration’s answer was lost', async () => {
    // The request reaches the server and creates the account; its answer never arrives (the network
    // dropped it), so the form says there was no network and the child sends the form again.
    let dropped = 0;
    const fetchFn: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (String(input).includes('/api/accounts/registercontact') && dropped === 0) {
        dropped += 1;
        throw new TypeError('Failed to fetch');
      }
      return response;
    };
    const { account, db } = await startedWorker(server, fetchFn);
    const form = { username: 'tappat.svar', password: PASSWORD, properties: { birthYear: '2012' } };

    expect(await account.register(form)).toEqual({ ok: false, code: 'offline' });
    expect(dropped).toBe(1);
    expect((await db.session.get('current'))?.status).toBe('anonymous');

    expect(await account.register(form)).toEqual({ ok: true });
    expect((await db.session.get('current'))?.status).toBe('authenticated');
    // The account the lost answer created, with what the first form gave.
    const profile = await db.profile.get('current');
    expect(profile?.loginName).toBe('tappat.svar');
    expect(profile?.properties).toEqual({ birthYear: '2012' });
  });

  it('refuses a common password and a name that passes for staff, each with an answer of its own', async () => {
    const { account, db } = await startedWorker(server);
    const attempt = (username: string, password: string) =>
      account.register({ username, password, properties: {} });

    expect(await account.verifyUsername('kur4tor')).toEqual({ ok: true, value: 'taken' });
    expect(await attempt('kur4tor', PASSWORD)).toEqual({ ok: false, code: 'name_not_allowed' });
    expect(await attempt('Support.Barn', PASSWORD)).toEqual({ ok: false, code: 'name_not_allowed' });
    for (const common of ['12345678', 'sommar2024', 'hemligt-123', 'lisa.berg-1']) {
      expect(await attempt('lisa.berg', common)).toEqual({ ok: false, code: 'common_password' });
    }
    // Any other refusal is still just invalid (the form checks length and characters itself).
    expect(await attempt('x', PASSWORD)).toEqual({ ok: false, code: 'invalid' });
    expect((await db.session.get('current'))?.status).toBe('anonymous');
    expect(await account.verifyUsername('lisa.berg')).toEqual({ ok: true, value: 'available' });
  });

  it('changes the password only with the current one, stays signed in here, and ends the old tokens', async () => {
    const { account, worker, db, broadcasts } = await startedWorker(server);
    await registered(account, 'byter.losen');
    await waitForQuery(
      () => db.runtime.get('current'),
      (row) => row?.hubState === 'Connected',
    );
    const before = (await worker.auth.manager.getUser())!;

    expect(outcomeOf(await account.changePassword('fel-losenord', 'nytt-losenord-1'))).toBe('wrong_password');
    expect(outcomeOf(await account.changePassword(PASSWORD, 'kort'))).toBe('weak_password');
    expect(outcomeOf(await account.changePassword(PASSWORD, 'sommar2024'))).toBe('common_password');
    expect(outcomeOf(await account.changePassword(PASSWORD, 'byter.losen-2'))).toBe('common_password');
    // Refused changes end nothing: the old tokens still serve.
    expect((await api(server.url, '/portal/accounts', { token: before.access_token })).status).toBe(200);

    expect(outcomeOf(await account.changePassword(PASSWORD, 'nytt-losenord-1'))).toBe('ok');

    // The server ended every session of the account; this device signed in again with new tokens.
    expect(await db.session.get('current')).toMatchObject({ status: 'authenticated' });
    expect((await db.session.get('current'))?.signOutReason).toBeUndefined();
    expect(broadcasts.filter((b) => b.type === 'signed-out')).toEqual([]);
    const after = (await worker.auth.manager.getUser())!;
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect(outcomeOf(await account.loadNotifications())).toBe('ok');
    // The hub was stopped before the change and started again with the new token.
    expect(worker.hub.state).toBe('Connected');
    expect(await worker.authCheck(true)).toBe(true);

    // What the old tokens would have allowed (another device, a stolen session) is over.
    expect((await api(server.url, '/portal/accounts', { token: before.access_token })).status).toBe(401);
    const oldRefresh = await tokenRequest(server.url, {
      grant_type: 'refresh_token',
      refresh_token: before.refresh_token!,
      client_id: CLIENT_ID,
    });
    expect(oldRefresh).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    await worker.logout();
    expect(await worker.login('byter.losen', PASSWORD)).toEqual({
      ok: false,
      code: 'invalid_username_or_password',
    });
    expect(await worker.login('byter.losen', 'nytt-losenord-1')).toEqual({ ok: true });
  });

  it('signs out here when signing in again after the change fails, and the new password works', async () => {
    const { account, worker, db } = await startedWorker(server);
    await registered(account, 'byter.igen');
    vi.spyOn(worker.auth, 'login').mockResolvedValueOnce({ ok: false, code: 'failed' });

    expect(outcomeOf(await account.changePassword(PASSWORD, 'nytt-losenord-2'))).toBe('signed_out');
    expect(await db.session.get('current')).toMatchObject({
      status: 'anonymous',
      signOutReason: 'session_expired',
    });
    expect(await db.profile.count()).toBe(0);
    expect(await worker.login('byter.igen', 'nytt-losenord-2')).toEqual({ ok: true });
  });

  it('asks to wait after too many wrong current passwords, and keeps the session', async () => {
    const { account, db } = await startedWorker(server);
    await registered(account, 'gissar.fel');
    const results: string[] = [];
    // Five tries are free; the next one right after is spaced out by the server (429).
    while (results.length < 10 && results.at(-1) !== 'too_many_attempts') {
      results.push(outcomeOf(await account.changePassword('inte-mitt-losenord', 'nytt-losenord-3')));
    }
    expect(results.at(-1)).toBe('too_many_attempts');
    expect(results.slice(0, -1).every((r) => r === 'wrong_password')).toBe(true);
    expect((await db.session.get('current'))?.status).toBe('authenticated');
    expect(outcomeOf(await account.loadNotifications())).toBe('ok');
  });
});

describe('notifications, contact messages and deleting the account', () => {
  let server: TestServer;
  let counsellor: string;
  beforeAll(async () => {
    server = await startTestServer();
    counsellor = (await login(server.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token;
  });
  afterAll(async () => server?.dispose());

  it('lists a new notification from the hub, marks it read and deletes it, keeping the count right', async () => {
    const { account, db } = await startedWorker(server);
    await registered(account, 'far.svar');
    expect(outcomeOf(await account.loadNotifications())).toBe('ok');
    expect(await db.notifications.count()).toBe(0);

    const child = (await login(server.url, 'far.svar', PASSWORD)).access_token;
    const mail = await api(server.url, '/portal/mail', {
      token: child,
      body: { subject: 'Fråga', text: 'Hej, jag undrar en sak.' },
    });
    expect(mail.status).toBe(200);
    const conversationId = (mail.body as { id: number }).id;
    const answer = await api(server.url, `/portal/staff/conversations/${conversationId}/messages`, {
      token: counsellor,
      body: { content: 'Hej! Här är ett svar.' },
    });
    expect(answer.status).toBe(201);

    // The hub event alone brings both the header count and the list.
    await waitForQuery(
      () => db.runtime.get('current'),
      (row) => row?.notificationCount === 1,
    );
    const [notification] = await waitForQuery(
      () => db.notifications.toArray(),
      (rows) => rows.length === 1,
    );
    expect(notification).toMatchObject({
      entity: `Conversation:${conversationId}`,
      notificationType: 'NewMessage',
      isProcessed: false,
    });

    expect(outcomeOf(await account.processNotification(notification!.id))).toBe('ok');
    expect((await db.notifications.get(notification!.id))?.isProcessed).toBe(true);
    expect((await db.runtime.get('current'))?.notificationCount).toBe(0);
    expect(outcomeOf(await account.loadNotifications())).toBe('ok');
    expect((await db.notifications.get(notification!.id))?.isProcessed).toBe(true);

    expect(outcomeOf(await account.deleteNotification(notification!.id))).toBe('ok');
    expect(await db.notifications.count()).toBe(0);
    expect(outcomeOf(await account.loadNotifications())).toBe('ok');
    expect(await db.notifications.count()).toBe(0);
  });

  it('asks for the notifications of the last 30 days', async () => {
    const clock = new ManualClock();
    const recorder = recordingFetch();
    const fixture = await createWorker(server, { clock, fetch: recorder.fetchFn });
    fixtures.push(fixture);
    await fixture.worker.start(true);
    await registered(fixture.worker.commands, 'trettio.dagar');

    expect(outcomeOf(await fixture.worker.commands.loadNotifications())).toBe('ok');
    const call = recorder.calls.filter((c) => new URL(c.url).pathname.endsWith('/api/notifications')).at(-1);
    expect(call).toBeDefined();
    const fromDate = new URL(call!.url).searchParams.get('fromDate');
    expect(fromDate).toBe(new Date(clock.now() - NOTIFICATIONS_DAYS * 24 * 3600_000).toISOString());
  });

  it("reads and deletes the demo child's contact message", async () => {
    const { account, worker, db } = await startedWorker(server);
    expect(await worker.login('demo', 'demo-losenord')).toEqual({ ok: true });

    expect(outcomeOf(await account.loadContactMessages())).toBe('ok');
    const [message] = await db.contactMessages.toArray();
    expect(message).toMatchObject({ IsActive: true, IsRead: false, Subject: 'Välkommen till Stödlinjen' });
    expect(message!.Text).toContain('\n');

    expect(outcomeOf(await account.processContactMessage(message!.Id))).toBe('ok');
    expect((await db.contactMessages.get(message!.Id))?.IsRead).toBe(true);
    expect(outcomeOf(await account.loadContactMessages())).toBe('ok');
    expect((await db.contactMessages.get(message!.Id))?.IsRead).toBe(true);

    expect(outcomeOf(await account.deleteContactMessage(message!.Id))).toBe('ok');
    expect(await db.contactMessages.count()).toBe(0);
    expect(outcomeOf(await account.loadContactMessages())).toBe('ok');
    expect(await db.contactMessages.count()).toBe(0);
    // Someone else's (or a gone) message is refused, and the cache is left alone.
    expect(outcomeOf(await account.deleteContactMessage(message!.Id + 1000))).toBe('failed');
  });

  it('deletes the account: signed out by choice, and the login no longer works', async () => {
    const { account, worker, db } = await startedWorker(server);
    await registered(account, 'tar.bort');
    await waitForQuery(
      () => db.runtime.get('current'),
      (row) => row?.hubState === 'Connected',
    );

    expect(outcomeOf(await account.deleteAccount())).toBe('ok');
    const session = await db.session.get('current');
    expect(session).toMatchObject({ status: 'anonymous', signOutReason: 'user' });
    expect(await db.profile.count()).toBe(0);
    expect(await worker.login('tar.bort', PASSWORD)).toEqual({
      ok: false,
      code: 'invalid_username_or_password',
    });
  });
});
