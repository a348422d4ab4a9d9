import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SILENT_REFRESH_TIMEOUT_MS, TOKEN_TIMEOUT_FACTOR } from '../../../contract/timings.ts';
import { startFaultProxy } from '../../../harness/fault-proxy.ts';
import { AuthSession, tokenLifetimeMs, type AuthEvent } from '../../../worker/auth/auth-session.ts';
import { AuthDb, DexieStateStore } from '../../../worker/auth/user-store.ts';
import { noLock } from '../../../worker/clock.ts';
import { api, startTestServer, type TestServer } from '../../../harness/test-server.ts';
import { ManualClock, uniqueName } from '../helpers.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.dispose());
afterEach(() => {
  vi.useRealTimers();
});

function session(clock = new ManualClock(), authUrl = server.url) {
  const db = new AuthDb(uniqueName('portal-auth'));
  /** SPEC §8's authentication library events, as emitted. */
  const events: Array<[AuthEvent, string]> = [];
  const auth = new AuthSession({
    config: { authUrl, authClientId: 'portal-web', portalId: 'portal' },
    variant: 'Barn',
    origin: authUrl,
    userStore: new DexieStateStore(db),
    clock,
    withLock: noLock,
    onEvent: (event, detail) => events.push([event, detail]),
  });
  return { auth, db, clock, events };
}

describe('auth session against the real server', () => {
  it('logs in with a password and keeps the tokens in the portal-auth store only', async () => {
    const { auth, db } = session();
    expect(await auth.login('demo', 'demo-losenord')).toEqual({ ok: true });
    const token = await auth.accessToken();
    expect((await api(server.url, '/portal/accounts', { token: token! })).status).toBe(200);
    const stored = (await db.items.toArray()).filter((item) => item.value.includes(token!));
    expect(stored).toHaveLength(1);
  });

  it('logs a participant in with the personal code and no password', async () => {
    const { auth } = session();
    expect(await auth.login('DEMOKOD-0002', null)).toEqual({ ok: true });
  });

  it('maps wrong credentials and an unreachable server to their login errors', async () => {
    expect(await session().auth.login('demo', 'fel-losenord')).toEqual({
      ok: false,
      code: 'invalid_username_or_password',
    });
    const offline = new AuthSession({
      config: { authUrl: 'http://127.0.0.1:1', authClientId: 'portal-web', portalId: 'portal' },
      origin: server.url,
      userStore: new DexieStateStore(new AuthDb(uniqueName('portal-auth'))),
      clock: new ManualClock(),
      withLock: noLock,
    });
    expect(await offline.login('demo', 'demo-losenord')).toEqual({ ok: false, code: 'offline' });
  });

  it('schedules the refresh at 0.75 of the token’s lifetime and gets new tokens then', async () => {
    const { auth, clock } = session();
    await auth.login('demo', 'demo-losenord');
    const before = (await auth.manager.getUser())!;
    let due!: () => void;
    const fired = new Promise<void>((resolve) => (due = resolve));
    await auth.scheduleRefresh(() => due());
    const expiresAtMs = before.expires_at! * 1000;
    // SPEC §9 timeout factor: a 15-minute token is renewed after 11 min 15 s, 3 min 45 s before its end.
    expect(tokenLifetimeMs(before.access_token)).toBe(15 * 60_000);
    const dueAt = expiresAtMs - 0.25 * 15 * 60_000;
    expect(clock.nextAt()).toBe(dueAt);

    clock.advance(dueAt - clock.now() - 1);
    expect(clock.pending()).toBe(1);
    clock.advance(1);
    await fired;
    expect(await auth.refresh(before.access_token)).toBe('refreshed');
    const after = (await auth.manager.getUser())!;
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect((await api(server.url, '/portal/accounts', { token: after.access_token })).status).toBe(200);
  });

  it('says which variant asks, on the token and revocation calls too (SPEC §1)', async () => {
    const { auth } = session();
    const seen: string[] = [];
    const realFetch = globalThis.fetch;
    // Observes the real calls (they still reach the real server).
    globalThis.fetch = (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      seen.push(`${new URL(url).pathname} ${new Headers(init?.headers).get('X-App-Variant')}`);
      return realFetch(input, init);
    };
    try {
      expect(await auth.login('demo', 'demo-losenord')).toEqual({ ok: true });
      expect(await auth.refresh()).toBe('refreshed');
      await auth.signOut();
    } finally {
      globalThis.fetch = realFetch;
    }
    expect(seen).toEqual(expect.arrayContaining(['/connect/token Barn', '/connect/revocation Barn']));
    expect(seen.filter((call) => !call.endsWith(' Barn'))).toEqual([]);
  });

  it('still refreshes after the clock second of the login has passed (new auth_time)', async () => {
    const { auth, db } = session();
    await auth.login('demo', 'demo-losenord');
    const user = (await db.items.toArray()).find((item) => item.value.startsWith('{'))!;
    expect(JSON.parse(user.value)).not.toHaveProperty('id_token');
    // No event to await here: the server stamps auth_time in whole seconds, so cross into the next.
    await new Promise((r) => setTimeout(r, 1050 - (Date.now() % 1000)));
    expect(await auth.refresh()).toBe('refreshed');
    expect(await auth.refresh()).toBe('refreshed');
  });

  it('refreshes an expired access token when one is asked for', async () => {
    const { auth, clock } = session();
    await auth.login('demo', 'demo-losenord');
    const before = (await auth.manager.getUser())!;
    clock.advance(before.expires_in! * 1000);
    expect(await auth.validUser()).toBeNull();
    const token = await auth.accessToken();
    expect(token).toBeTruthy();
    expect(token).not.toBe(before.access_token);
  });

  it('does not refresh twice when another worker already did (shared store)', async () => {
    const { auth } = session();
    await auth.login('demo', 'demo-losenord');
    const stale = (await auth.manager.getUser())!.access_token;
    expect(await auth.refresh()).toBe('refreshed');
    const fresh = (await auth.manager.getUser())!.access_token;
    expect(await auth.refresh(stale)).toBe('refreshed');
    expect((await auth.manager.getUser())!.access_token).toBe(fresh);
  });

  it('removes the user when the server rejects the refresh token', async () => {
    const { auth } = session();
    await auth.login('demo', 'demo-losenord');
    const user = (await auth.manager.getUser())!;
    await fetch(`${server.url}/connect/revocation`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        token: user.refresh_token!,
        token_type_hint: 'refresh_token',
        client_id: 'portal-web',
      }),
    });
    expect(await auth.refresh()).toBe('rejected');
    expect(await auth.manager.getUser()).toBeNull();
  });

  it('revokes the tokens on sign-out', async () => {
    const { auth } = session();
    await auth.login('demo', 'demo-losenord');
    const user = (await auth.manager.getUser())!;
    await auth.signOut();
    expect(await auth.manager.getUser()).toBeNull();
    expect((await api(server.url, '/portal/accounts', { token: user.access_token })).status).toBe(401);
  });

  it('takes a fresh token as valid and renews it at 0.75 of its lifetime with the device clock 10 minutes off', async () => {
    const SKEW_MS = 10 * 60_000;
    const realFetch = globalThis.fetch;
    try {
      for (const skew of [SKEW_MS, -SKEW_MS]) {
        // This process's Date is the server's while a request is out and the device's otherwise, so
        // the authentication library reads the answer on the device's clock, as in the browser.
        const serverNow = Math.floor(Date.now() / 1000) * 1000;
        const deviceNow = serverNow + skew;
        vi.useFakeTimers({ toFake: ['Date'], now: deviceNow });
        globalThis.fetch = async (input, init) => {
          vi.setSystemTime(serverNow);
          try {
            return await realFetch(input, init);
          } finally {
            vi.setSystemTime(deviceNow);
          }
        };
        const { auth, clock } = session(new ManualClock(deviceNow));
        expect(await auth.login('demo', 'demo-losenord')).toEqual({ ok: true });
        const user = (await auth.manager.getUser())!;
        const lifetimeMs = tokenLifetimeMs(user.access_token)!;
        expect(lifetimeMs).toBe(15 * 60_000);

        expect(await auth.validUser()).not.toBeNull();
        expect(await auth.accessToken()).toBe(user.access_token);
        await auth.scheduleRefresh(() => undefined);
        expect(clock.nextAt()).toBe(deviceNow + TOKEN_TIMEOUT_FACTOR * lifetimeMs);
        auth.stopRefresh();
        vi.useRealTimers();
      }
    } finally {
      globalThis.fetch = realFetch;
    }
  });

  it('gives up a refresh that gets no answer after 20 s (SPEC §9), keeping the session', async () => {
    // The token endpoint reached through a proxy that can leave a request unanswered.
    const proxy = await startFaultProxy({ target: server.url });
    try {
      const { auth } = session(new ManualClock(), proxy.origin);
      expect(await auth.login('demo', 'demo-losenord')).toEqual({ ok: true });
      const before = (await auth.manager.getUser())!;

      proxy.addRule({ method: 'POST', path: '/connect/token', action: 'hang' });
      const arrived = proxy.waitForRequest({ method: 'POST', path: '/connect/token' });
      // The library's request timer is a plain setTimeout: faked, so 20 s pass without waiting them.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      let outcome: string | null = null;
      const refreshing = auth.refresh().then((o) => (outcome = o));
      await arrived;

      expect(SILENT_REFRESH_TIMEOUT_MS).toBe(20_000);
      await vi.advanceTimersByTimeAsync(SILENT_REFRESH_TIMEOUT_MS - 1);
      expect(outcome).toBeNull();
      await vi.advanceTimersByTimeAsync(1);
      await vi.waitFor(() => expect(outcome).not.toBeNull(), { timeout: 2000 });
      await refreshing;
      // No answer is not a refused refresh token: worth another try, and nobody is signed out.
      expect(outcome).toBe('unreachable');
      expect((await auth.manager.getUser())?.refresh_token).toBe(before.refresh_token);

      vi.useRealTimers();
      proxy.clearRules();
      expect(await auth.refresh()).toBe('refreshed');
    } finally {
      await proxy.close();
    }
  });

  describe('emits the authentication library events of SPEC §8 that a password grant can meet', () => {
    it('token_error for a refused login, discovery_document_load_error when the server cannot be reached', async () => {
      const refused = session();
      await refused.auth.login('demo', 'fel-losenord');
      expect(refused.events).toEqual([['token_error', 'invalid_username_or_password']]);
      const unreachable = session(new ManualClock(), 'http://127.0.0.1:1');
      await unreachable.auth.login('demo', 'demo-losenord');
      expect(unreachable.events).toEqual([['discovery_document_load_error', 'offline']]);
    });

    it('token_refresh_error for a refused refresh token, none for a refresh that works', async () => {
      const { auth, events } = session();
      await auth.login('demo', 'demo-losenord');
      expect(await auth.refresh()).toBe('refreshed');
      expect(events).toEqual([]);
      const user = (await auth.manager.getUser())!;
      await auth.manager.storeUser(Object.assign(user, { refresh_token: 'inte-en-riktig-token' }));
      expect(await auth.refresh()).toBe('rejected');
      expect(events).toEqual([['token_refresh_error', 'invalid_grant']]);
    });

    it('token_validation_error for an answer that is no token, silent_refresh_timeout for none in 20 s, token_revoke_error for a failed revocation', async () => {
      const proxy = await startFaultProxy({ target: server.url });
      try {
        const { auth, events } = session(new ManualClock(), proxy.origin);
        expect(await auth.login('demo', 'demo-losenord')).toEqual({ ok: true });

        // 200 with a body that holds no token.
        const bad = proxy.addRule({ method: 'POST', path: '/connect/token', action: 'status', status: 200 });
        expect(await auth.refresh()).toBe('rejected');
        // Not left half signed in: the library had stored the answer as the user.
        expect(await auth.manager.getUser()).toBeNull();
        expect(await auth.login('demo', 'demo-losenord')).toEqual({ ok: false, code: 'failed' });
        expect(await auth.manager.getUser()).toBeNull();
        expect(events.map(([event]) => event)).toEqual(['token_validation_error', 'token_validation_error']);
        bad.remove();
        events.length = 0;
        expect(await auth.login('demo', 'demo-losenord')).toEqual({ ok: true });

        proxy.addRule({ method: 'POST', path: '/connect/token', action: 'hang', times: 1 });
        const arrived = proxy.waitForRequest({ method: 'POST', path: '/connect/token' });
        vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
        const refreshing = auth.refresh();
        await arrived;
        await vi.advanceTimersByTimeAsync(SILENT_REFRESH_TIMEOUT_MS);
        expect(await refreshing).toBe('unreachable');
        vi.useRealTimers();
        expect(events.map(([event]) => event)).toEqual(['silent_refresh_timeout']);
        events.length = 0;

        proxy.addRule({ method: 'POST', path: '/connect/revocation', action: 'status', status: 500 });
        await auth.signOut();
        expect(await auth.manager.getUser()).toBeNull();
        expect(events.map(([event]) => event)).toEqual(['token_revoke_error']);
      } finally {
        await proxy.close();
      }
    });
  });
});
