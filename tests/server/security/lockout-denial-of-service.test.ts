import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOGIN_POLICY, delayAfter } from '../../../server/auth/login-throttle.ts';
import type { TestServer } from '../test-server.ts';
import { startTarget, tryLogin } from './attack.ts';

/**
 * Attack: using the lockout against the people it protects. Ten wrong passwords locked a child (or
 * the counsellor) out for 15 minutes even with the right password, and 500 wrong codes from a few
 * addresses locked every group participant out. Now failures only space attempts out, per
 * username and address; the brakes on a username or on all codes spare the right credentials from
 * an address that has signed in before.
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
});

describe('wrong personal codes', () => {
  // 520 real guesses: the slowest test here, given room on a busy machine.
  it('from a few addresses (520 of them) lock no participant out', { timeout: 120_000 }, async () => {
    server = await startTarget({ variant: 'gruppstod' });
    const url = server.url;
    await Promise.all(
      Array.from({ length: 20 }, async (_, a) => {
        for (let i = 0; i < 26; i++) await tryLogin(url, `GISSA-${a}-${i}-XYZ`, '', `203.0.113.${a + 1}`);
      }),
    );
    expect((await tryLogin(url, 'DEMOKOD-0002', '', '198.51.100.2')).status).toBe(200);
  });

  it('from everywhere brake new addresses, not an address a participant used before', async () => {
    server = await startTarget({
      variant: 'gruppstod',
      build: { loginPolicy: { codeGlobal: { free: 30, baseMs: 60_000, maxMs: 900_000 } } },
    });
    const url = server.url;
    expect((await tryLogin(url, 'DEMOKOD-0002', '', HOME)).status).toBe(200);
    for (let a = 0; a < 10; a++) {
      for (let i = 0; i < 3; i++) await tryLogin(url, `GISSA-${a}-${i}-XYZ`, '', `203.0.113.${a + 1}`);
    }
    expect((await tryLogin(url, 'GISSA-SIST-XYZ', '', '203.0.113.99')).status).toBe(429);
    expect((await tryLogin(url, 'DEMOKOD-0003', '', '198.51.100.77')).status).toBe(429);
    expect((await tryLogin(url, 'DEMOKOD-0002', '', HOME)).status).toBe(200);
  });
});
