import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOGIN_POLICY, delayAfter } from '../../../server/auth/login-throttle.ts';
import type { TestServer } from '../../../harness/test-server.ts';
import { callFrom, deviceOf, startTarget, tryLogin } from '../../../harness/attack.ts';
import { readMetrics } from '../../../harness/metrics-text.ts';

/**
 * Attack: using the lockout against the people it protects. Ten wrong passwords locked a child (or
 * the counsellor) out for 15 minutes even with the right password, and 500 wrong codes from a few
 * addresses locked every group participant out. Now failures only space attempts out, per
 * username and address; the brake on a username spares the right credentials from an address that
 * has signed in before, and personal codes have no brake over all addresses at all (wrong codes
 * from 55 addresses armed it and kept every new participant out).
 */
let server: TestServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await server?.dispose();
  server = undefined;
});

const HOME = '198.51.100.1';
const ATTACKER = '203.0.113.20';

describe('wrong guesses by someone else', () => {
  it('leave the child able to sign in from home', async () => {
    server = await startTarget();
    expect((await tryLogin(server.url, 'demo', 'demo-losenord', HOME)).status).toBe(200);
    for (let i = 0; i < 20; i++) await tryLogin(server.url, 'demo', `fel-${i}`, ATTACKER);
    expect((await tryLogin(server.url, 'demo', `fel-igen`, ATTACKER)).status).toBe(429);
    expect((await tryLogin(server.url, 'demo', 'demo-losenord', HOME)).status).toBe(200);
    // Another address that never signed in is not blocked by the attacker's pair either.
    expect((await tryLogin(server.url, 'demo', 'demo-losenord', '198.51.100.99')).status).toBe(200);
  });

  it('leave the counsellor able to sign in to the console', async () => {
    server = await startTarget();
    expect((await tryLogin(server.url, 'kurator', 'kurator-losenord', HOME, 'portal-staff')).status).toBe(
      200,
    );
    for (let i = 0; i < 15; i++) await tryLogin(server.url, 'kurator', `fel-${i}`, ATTACKER, 'portal-staff');
    expect((await tryLogin(server.url, 'kurator', 'kurator-losenord', HOME, 'portal-staff')).status).toBe(
      200,
    );
  });

  it('only delay the same address, by a growing wait that ends', async () => {
    server = await startTarget();
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    for (let i = 0; i < LOGIN_POLICY.pair.free; i++) {
      expect((await tryLogin(server.url, 'demo', `fel-${i}`, ATTACKER)).status).toBe(400);
    }
    const waiting = await tryLogin(server.url, 'demo', 'demo-losenord', ATTACKER);
    expect(waiting.status).toBe(429);
    expect(Number(waiting.retryAfter)).toBe(delayAfter(LOGIN_POLICY.pair, LOGIN_POLICY.pair.free) / 1000);
    vi.setSystemTime(Date.now() + delayAfter(LOGIN_POLICY.pair, LOGIN_POLICY.pair.free));
    expect((await tryLogin(server.url, 'demo', 'fel-igen', ATTACKER)).status).toBe(400);
    // Each further failure doubles the wait; the right password is let in once the wait is over.
    const longer = await tryLogin(server.url, 'demo', 'demo-losenord', ATTACKER);
    expect(Number(longer.retryAfter)).toBe(
      2 * (delayAfter(LOGIN_POLICY.pair, LOGIN_POLICY.pair.free) / 1000),
    );
    vi.setSystemTime(Date.now() + Number(longer.retryAfter) * 1000);
    expect((await tryLogin(server.url, 'demo', 'demo-losenord', ATTACKER)).status).toBe(200);
  });

  it('from many addresses brake the username, but not for its owner at a known address', async () => {
    // The username brake scaled down from 100 to 12, so a dozen addresses reach it.
    server = await startTarget({
      build: { loginPolicy: { username: { free: 12, baseMs: 60_000, maxMs: 900_000 } } },
    });
    expect((await tryLogin(server.url, 'demo', 'demo-losenord', HOME)).status).toBe(200);
    for (let i = 0; i < 12; i++) await tryLogin(server.url, 'demo', 'fel-losenord', `203.0.113.${100 + i}`);
    const braked = await tryLogin(server.url, 'demo', 'fel-losenord', '203.0.113.200');
    expect(braked.status).toBe(429);
    expect(Number(braked.retryAfter)).toBeGreaterThan(0);
    // A first-time address waits with the guessers (it cannot be told apart from one)...
    expect((await tryLogin(server.url, 'demo', 'demo-losenord', '198.51.100.50')).status).toBe(429);
    // ...while the child's own address is let in with the right password, and only with it.
    expect((await tryLogin(server.url, 'demo', 'fel-losenord', HOME)).status).toBe(400);
    expect((await tryLogin(server.url, 'demo', 'demo-losenord', HOME)).status).toBe(200);
  });

  it('from many addresses brake the username, but not for its owner’s own app at a new address', async () => {
    server = await startTarget({
      build: { loginPolicy: { username: { free: 12, baseMs: 60_000, maxMs: 900_000 } } },
    });
    // The server issues the app a device token at each login; the app sends it with the next one.
    const home = await tryLogin(server.url, 'demo', 'demo-losenord', HOME);
    expect(home.status).toBe(200);
    const device = deviceOf(home);
    const stranger = { device_token: 'Zz9k'.repeat(10) + 'Zz9' };
    // Guessers from many addresses, each with a token of its own making (or none).
    for (let i = 0; i < 12; i++) {
      const own = { device_token: `Gissare${String(i).padStart(2, '0')}`.repeat(5).slice(0, 43) };
      expect(
        (await tryLogin(server.url, 'demo', 'fel-losenord', `203.0.113.${100 + i}`, undefined, own)).status,
      ).toBe(400);
    }
    // A network the child never used: with their own app they get in at once...
    const school = '198.51.100.77';
    expect((await tryLogin(server.url, 'demo', 'demo-losenord', school, undefined, stranger)).status).toBe(
      429,
    );
    expect((await tryLogin(server.url, 'demo', 'demo-losenord', school)).status).toBe(429);
    // ...and the device token opens nothing without the password, nor for another account.
    expect(
      (await tryLogin(server.url, 'demo', 'fel-losenord', '198.51.100.78', undefined, device)).status,
    ).toBe(400);
    expect(
      (await tryLogin(server.url, 'kurator', 'fel', '198.51.100.79', 'portal-staff', device)).status,
    ).toBe(400);
    const atSchool = await tryLogin(server.url, 'demo', 'demo-losenord', school, undefined, device);
    expect(atSchool.status).toBe(200);
    // The next login brings the token that login was issued, and is let in again.
    const next = await tryLogin(
      server.url,
      'demo',
      'demo-losenord',
      '198.51.100.80',
      undefined,
      deviceOf(atSchool),
    );
    expect(next.status).toBe(200);
  });

  it('forget the account’s devices when the password changes', async () => {
    server = await startTarget({
      build: { loginPolicy: { username: { free: 12, baseMs: 60_000, maxMs: 900_000 } } },
    });
    const home = await tryLogin(server.url, 'demo', 'demo-losenord', HOME);
    expect(home.status).toBe(200);
    const tablet = deviceOf(await tryLogin(server.url, 'demo', 'demo-losenord', '198.51.100.2'));
    for (let i = 0; i < 12; i++) await tryLogin(server.url, 'demo', 'fel-losenord', `203.0.113.${100 + i}`);
    // The child changes the password: the tablet that signed in with the old one no longer passes the brake.
    const changed = await callFrom(server.url, '/portal/api/accounts/changePassword', {
      token: String(home.body.access_token),
      body: { oldPassword: 'demo-losenord', password: 'ett-helt-nytt-losenord-42' },
      address: HOME,
    });
    expect(changed.status).toBe(200);
    const after = await tryLogin(
      server.url,
      'demo',
      'ett-helt-nytt-losenord-42',
      '198.51.100.60',
      undefined,
      tablet,
    );
    expect(after.status).toBe(429);
  });
});

describe('wrong personal codes', () => {
  // 550 real guesses, each a real code check: the slowest test here, given room on a busy machine.
  it(
    'from 55 addresses keep no new participant out, and show in the metrics',
    { timeout: 300_000 },
    async () => {
      server = await startTarget({ variant: 'gruppstod' });
      const url = server.url;
      const leader = (await tryLogin(url, 'gruppledare', 'gruppledare-losenord', HOME, 'portal-staff')).body;
      // 550 wrong codes: each address up to its own free attempts, all addresses at once.
      const free = LOGIN_POLICY.codeAddress.free;
      await Promise.all(
        Array.from({ length: 55 }, async (_, a) => {
          for (let i = 0; i < free; i++) {
            expect((await tryLogin(url, `GISSA-${a}-${i}-XYZ`, '', `203.0.113.${a + 1}`)).status).toBe(400);
          }
        }),
      );
      // The leader adds a participant, who signs in from addresses never seen before, again and again.
      const added = await callFrom(url, '/portal/staff/series/1/participants', {
        token: String(leader.access_token),
        body: { name: 'Ny deltagare' },
        address: HOME,
        headers: { 'X-App-Variant': 'Gruppstod' },
      });
      expect(added.status).toBe(201);
      const code = String(added.body?.personalCode);
      for (let i = 0; i < 10; i++) {
        expect((await tryLogin(url, code, '', `198.51.100.${100 + i}`)).status).toBe(200);
      }
      // What the operator is alerted by instead of a site-wide refusal.
      const metrics = await readMetrics(url);
      expect(metrics.get('login_failures_total{kind="personal_code"}')).toBe(55 * free);
    },
  );
});
