import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AuthSession } from '../../../worker/auth/auth-session.ts';
import { AuthDb, DexieStateStore } from '../../../worker/auth/user-store.ts';
import { noLock } from '../../../worker/clock.ts';
import { startTestServer, type TestServer } from '../../../harness/test-server.ts';
import { tryLogin } from '../../../harness/attack.ts';
import { ManualClock, uniqueName } from '../helpers.ts';
import { createWorker, type WorkerFixture } from '../worker-fixture.ts';

/**
 * The device token on the device (docs/security.md, "What the device keeps"): issued by the server,
 * replaced at every login, and kept bound to the login it belongs to, so `portal-device` holds
 * nothing that spares anyone the brakes without the child's password.
 */
let server: TestServer;
const SCHOOL = '198.51.100.200';
beforeAll(async () => {
  // Behind a trusted proxy, so a test can say where a request comes from; the address brake scaled
  // down from 30 usernames to 3.
  server = await startTestServer({
    config: { trustProxy: ['127.0.0.1'] },
    build: { loginPolicy: { address: { free: 3, baseMs: 60_000, maxMs: 900_000 } } },
  });
});
afterAll(async () => server?.dispose());

/** What the token endpoint was sent, and what it answered with, for each call. */
interface TokenCall {
  sent: string | null;
  status: number;
  issued: string | null;
}

const realFetch = globalThis.fetch;
const calls: TokenCall[] = [];
/** When set, the token endpoint's first answer to a login that carries a device token (an older server). */
let refuseWithToken: Response | null = null;
/** The address every request says it comes from (the trusted proxy's header). */
let from = '198.51.100.1';
afterEach(() => {
  globalThis.fetch = realFetch;
  calls.length = 0;
  refuseWithToken = null;
  from = '198.51.100.1';
});

/** Watches the token endpoint through the global fetch (which oidc-client-ts calls). */
function watchTokenCalls() {
  globalThis.fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const headers = new Headers(init?.headers);
    // The test's own attack requests say where they come from; the app's come from `from`.
    if (!headers.has('X-Forwarded-For')) headers.set('X-Forwarded-For', from);
    if (!url.endsWith('/connect/token')) return realFetch(input, { ...init, headers });
    const form = new URLSearchParams(String(init?.body));
    if (form.get('grant_type') !== 'password') return realFetch(input, { ...init, headers });
    const sent = form.get('device_token');
    if (sent && refuseWithToken) {
      const refusal = refuseWithToken;
      refuseWithToken = null;
      calls.push({ sent, status: refusal.status, issued: null });
      return refusal;
    }
    const answer = await realFetch(input, { ...init, headers });
    const body = (await answer.clone().json()) as { device_token?: string };
    calls.push({ sent, status: answer.status, issued: body.device_token ?? null });
    return answer;
  };
}

function session(deviceDb = new AuthDb(uniqueName('portal-device'))) {
  const auth = new AuthSession({
    config: { authUrl: server.url, authClientId: 'portal-web', portalId: 'portal' },
    variant: 'Barn',
    origin: server.url,
    userStore: new DexieStateStore(new AuthDb(uniqueName('portal-auth'))),
    deviceStore: new DexieStateStore(deviceDb),
    clock: new ManualClock(),
    withLock: noLock,
  });
  return { auth, deviceDb };
}

/** Everything the device's database holds, as text. */
const deviceBytes = async (db: AuthDb) => JSON.stringify(await db.items.toArray());

describe('the device token', () => {
  it('is the server’s, replaced at each login, and never kept in clear', async () => {
    watchTokenCalls();
    const { auth, deviceDb } = session();
    for (let i = 0; i < 3; i++) {
      expect(await auth.login('demo', 'demo-losenord')).toEqual({ ok: true });
      await auth.signOut();
    }
    expect(calls.map((c) => c.status)).toEqual([200, 200, 200]);
    // The first login had none; each later one brought the token the one before was issued.
    expect(calls[0]!.sent).toBeNull();
    expect(calls[1]!.sent).toBe(calls[0]!.issued);
    expect(calls[2]!.sent).toBe(calls[1]!.issued);
    expect(new Set(calls.map((c) => c.issued)).size).toBe(3);
    // What outlives the sign-outs holds none of them.
    const stored = await deviceBytes(deviceDb);
    for (const call of calls) expect(stored).not.toContain(call.issued!);
    expect(stored).not.toContain('demo-losenord');
  });

  it('unmasked with a wrong password is noise the server ignores, and is kept for the right one', async () => {
    watchTokenCalls();
    const { auth } = session();
    await auth.login('demo', 'demo-losenord');
    const issued = calls[0]!.issued;
    expect(await auth.login('demo', 'demo-losenorD')).toEqual({
      ok: false,
      code: 'invalid_username_or_password',
    });
    expect(calls[1]!.sent).toMatch(/^[\w-]{43}$/);
    expect(calls[1]!.sent).not.toBe(issued);
    // The typo changed nothing on the device: the next right login brings the token again.
    expect(await auth.login('demo', 'demo-losenord')).toEqual({ ok: true });
    expect(calls[2]!.sent).toBe(issued);
  });

  it('taken from the device without the password spares nobody', async () => {
    watchTokenCalls();
    const { auth, deviceDb } = session();
    await auth.login('demo', 'demo-losenord');
    // Someone copies the device's database and tries the login's own guesses with it.
    const copy = new AuthDb(uniqueName('portal-device'));
    await copy.items.bulkPut(await deviceDb.items.toArray());
    const stolen = session(copy).auth;
    await stolen.login('demo', 'gissning-1');
    const guessed = calls[1]!.sent;
    expect(guessed).not.toBe(calls[0]!.issued);
    // With the address brake armed where the guesser is, the real token would let the right
    // password through; what the copy gives is no token at all.
    const CAFE = '198.51.100.150';
    for (let i = 0; i < 3; i++) await tryLogin(server.url, `okand-kafe-${i}`, 'fel', CAFE);
    expect(
      (await tryLogin(server.url, 'demo', 'demo-losenord', CAFE, undefined, { device_token: guessed! }))
        .status,
    ).toBe(429);
    expect(
      (
        await tryLogin(server.url, 'demo', 'demo-losenord', CAFE, undefined, {
          device_token: calls[0]!.issued!,
        })
      ).status,
    ).toBe(200);
  });

  it('is tried once without when a server refuses the login it came with (429)', async () => {
    watchTokenCalls();
    const { auth } = session();
    await auth.login('demo', 'demo-losenord');
    // A server that counted the token against the login (an older release) answers 429 for it.
    refuseWithToken = new Response(
      JSON.stringify({ error: 'invalid_grant', error_description: 'too_many_attempts' }),
      { status: 429, headers: { 'Content-Type': 'application/json', 'Retry-After': '900' } },
    );
    expect(await auth.login('demo', 'demo-losenord')).toEqual({ ok: true });
    expect(calls.slice(1).map((c) => [c.status, c.sent === null])).toEqual([
      [429, false],
      [200, true],
    ]);
    // The login without it was issued a token as any other, and the next login brings that one.
    await auth.login('demo', 'demo-losenord');
    expect(calls[3]!.sent).toBe(calls[2]!.issued);
  });

  it('is not retried after a wrong password, nor sent with a personal code', async () => {
    watchTokenCalls();
    const { auth } = session();
    await auth.login('demo', 'demo-losenord');
    await auth.login('demo', 'fel-losenord');
    expect(calls).toHaveLength(2);
    expect(await auth.login('DEMOKOD-0002', null)).toEqual({ ok: true });
    expect(calls[2]).toMatchObject({ sent: null, status: 200, issued: null });
  });

  it('of the last design, kept in clear, is removed at the next login', async () => {
    watchTokenCalls();
    const { auth, deviceDb } = session();
    const legacy = 'EnEgenGjordNyckelFranForraVersionen12345678';
    await deviceDb.items.put({ key: 'portal-device-token', value: legacy });
    expect(await auth.login('demo', 'demo-losenord')).toEqual({ ok: true });
    expect(calls[0]!.sent).toBeNull();
    expect(await deviceBytes(deviceDb)).not.toContain(legacy);
  });
});

describe('registering at a school whose address brake is armed', () => {
  const fixtures: WorkerFixture[] = [];
  afterEach(async () => {
    await Promise.all(fixtures.splice(0).map((f) => f.dispose()));
  });

  it('signs the new child in from the device that registered; another device there waits', async () => {
    watchTokenCalls();
    from = SCHOOL;
    for (let i = 0; i < 3; i++) await tryLogin(server.url, `okand-${i}`, 'fel-losenord', SCHOOL);
    expect((await tryLogin(server.url, 'okand-x', 'fel-losenord', SCHOOL)).status).toBe(429);
    calls.length = 0;
    const schoolFetch: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('X-Forwarded-For', SCHOOL);
      return realFetch(input, { ...init, headers });
    };
    const fixture = await createWorker(server, { fetch: schoolFetch });
    fixtures.push(fixture);
    await fixture.worker.start(true);
    const username = `skolbarn.${Date.now() % 100_000}`;
    const password = 'Blå-Skolgård-Ballong-7';
    expect(await fixture.worker.commands.register({ username, password, properties: {} })).toEqual({
      ok: true,
    });
    // The first login brought the registration's token, and was let in past the brake.
    expect(calls.map((c) => [c.status, c.sent !== null])).toEqual([[200, true]]);
    expect(await deviceBytes(fixture.deviceDb)).not.toContain(calls[0]!.sent!);
    // Another device at the school, for any other account, still waits.
    expect((await tryLogin(server.url, 'demo', 'demo-losenord', SCHOOL)).status).toBe(429);
  });
});
