import { afterEach, describe, expect, it } from 'vitest';
import { LOGIN_POLICY } from '../../../server/auth/login-throttle.ts';
import type { TestServer } from '../../../harness/test-server.ts';
import { callFrom, deviceOf, registerChild, startTarget, tally, tryLogin } from '../../../harness/attack.ts';

/**
 * Attack: a copy of the child's device token as a remote lock-out. The token that spares the
 * child's own app the login brakes was kept in clear on the device, outlived logout and quick exit,
 * and was itself a hard counter: 12 wrong passwords with a copy, from anywhere, and the child's own
 * app got 429 at every address, home included, for as long as the attacker kept going (0 of 39
 * logins in 30 s). Now its failures count against the token alone and a braked token is ignored (the
 * login is judged as if it came without one), and every successful login replaces it, so a copy
 * goes stale at the child's next login.
 */
let server: TestServer | undefined;
afterEach(async () => {
  await server?.dispose();
  server = undefined;
});

const HOME = '198.51.100.1';
const ATTACKER = '203.0.113.66';
/** The username brake scaled down from 100 to 12, so a dozen addresses arm it. */
const USERNAME_BRAKE = { username: { free: 12, baseMs: 60_000, maxMs: 900_000 } };

/** Arms the username brake of `username`: wrong passwords from 12 fresh addresses, without a token. */
async function armUsernameBrake(url: string, username: string) {
  for (let i = 0; i < 12; i++) await tryLogin(url, username, 'fel-losenord', `192.0.2.${100 + i}`);
  expect((await tryLogin(url, username, 'fel-losenord', '192.0.2.200')).status).toBe(429);
}

describe('a copied device token', () => {
  it('used for wrong passwords at once leaves the child’s own app let in, with its token and without', async () => {
    server = await startTarget();
    const child = await registerChild(server);
    const signedIn = await tryLogin(server.url, child.username, child.password, HOME);
    expect(signedIn.status).toBe(200);
    const copy = deviceOf(signedIn);

    // 24 wrong passwords with the copy, all at once, from the attacker's address: twice the 12 that
    // locked the child out.
    const guesses = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        tryLogin(server!.url, child.username, `fel-${i}`, ATTACKER, undefined, copy),
      ),
    );
    const statuses = tally(guesses.map((g) => g.status));
    expect(Object.keys(statuses).sort()).toEqual(['400', '429']);
    expect(statuses[400]).toBeLessThanOrEqual(LOGIN_POLICY.pair.free + 2);

    // The child's own app still holds the very same token, and is let in with it: the guesses
    // counted against the token and the attacker's address, never against the child's login.
    const home = await tryLogin(server.url, child.username, child.password, HOME, undefined, copy);
    expect(home.status).toBe(200);
    // On a network it never used too, with the token it was just issued...
    const school = await tryLogin(
      server.url,
      child.username,
      child.password,
      '198.51.100.77',
      undefined,
      deviceOf(home),
    );
    expect(school.status).toBe(200);
    // ...and without any token.
    expect((await tryLogin(server.url, child.username, child.password, HOME)).status).toBe(200);
    expect((await tryLogin(server.url, child.username, child.password, '198.51.100.78')).status).toBe(200);
  });

  it('kept going from many addresses, never makes the child’s own app wait', async () => {
    server = await startTarget();
    const url = server.url;
    const child = await registerChild(server);
    const first = await tryLogin(url, child.username, child.password, HOME);
    const copy = deviceOf(first);
    let device = copy;
    const attackerStatuses: number[] = [];
    // The attacker keeps going with the copy, from a new address each time. The bursts are made to
    // overlap the child's logins (not left to the scheduler), so every one of the child's logins
    // meets a token already braked by more failures than the old lock-out needed.
    const burst = async (count: number) => {
      for (let k = 0; k < count; k++) {
        const n = attackerStatuses.length;
        const answer = await tryLogin(
          url,
          child.username,
          `fel-${n}`,
          `10.9.${n >> 8}.${n & 255}`,
          undefined,
          copy,
        );
        attackerStatuses.push(answer.status);
      }
    };
    await burst(12);
    const childStatuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const address = i % 2 === 0 ? HOME : `198.51.100.${120 + i}`;
      const [answer] = await Promise.all([
        tryLogin(url, child.username, child.password, address, undefined, device),
        burst(3),
      ]);
      childStatuses.push(answer.status);
      if (answer.status === 200) device = deviceOf(answer);
    }
    expect(attackerStatuses).toHaveLength(12 + 12 * 3);
    expect(attackerStatuses.filter((s) => s === 200)).toEqual([]);
    expect(childStatuses).toEqual(Array(12).fill(200));
  });

  it('braked, leaves the child exactly where a device without a token would be', async () => {
    // The token's own delay scaled up from 1 s, so that it still waits when the child comes.
    server = await startTarget({
      build: {
        loginPolicy: { ...USERNAME_BRAKE, device: { ...LOGIN_POLICY.device, baseMs: 600_000 } },
      },
    });
    const child = await registerChild(server);
    const copy = deviceOf(await tryLogin(server.url, child.username, child.password, HOME));
    for (let i = 0; i < LOGIN_POLICY.device.free + 1; i++) {
      await tryLogin(server.url, child.username, `fel-${i}`, `203.0.113.${10 + i}`, undefined, copy);
    }
    await armUsernameBrake(server.url, child.username);
    // The token is braked: a new address waits, as it would without a token...
    expect(
      (await tryLogin(server.url, child.username, child.password, '198.51.100.90', undefined, copy)).status,
    ).toBe(429);
    expect((await tryLogin(server.url, child.username, child.password, '198.51.100.91')).status).toBe(429);
    // ...and home, a known address, lets the child in with it as without it.
    expect((await tryLogin(server.url, child.username, child.password, HOME, undefined, copy)).status).toBe(
      200,
    );
  });

  it('goes stale at the child’s next login: from then on it spares nobody', async () => {
    server = await startTarget({ build: { loginPolicy: USERNAME_BRAKE } });
    const child = await registerChild(server);
    const copy = deviceOf(await tryLogin(server.url, child.username, child.password, HOME));
    await armUsernameBrake(server.url, child.username);
    // Until then the token lets its holder past the brake on a network it never used...
    const school = await tryLogin(
      server.url,
      child.username,
      child.password,
      '198.51.100.50',
      undefined,
      copy,
    );
    expect(school.status).toBe(200);
    const rotated = deviceOf(school);
    expect(rotated.device_token).not.toBe(copy.device_token);
    // ...and after that login the copy is worth no more than none, even with the right password.
    expect(
      (await tryLogin(server.url, child.username, child.password, '198.51.100.51', undefined, copy)).status,
    ).toBe(429);
    expect(
      (await tryLogin(server.url, child.username, 'fel-losenord', '198.51.100.52', undefined, copy)).status,
    ).toBe(429);
    // The token the child's app now holds is the one that spares it.
    expect(
      (await tryLogin(server.url, child.username, child.password, '198.51.100.53', undefined, rotated))
        .status,
    ).toBe(200);
  });

  it('is issued for one account: it spares no other', async () => {
    server = await startTarget({ build: { loginPolicy: USERNAME_BRAKE } });
    const child = await registerChild(server);
    const token = deviceOf(await tryLogin(server.url, child.username, child.password, HOME));
    await armUsernameBrake(server.url, 'demo');
    expect(
      (await tryLogin(server.url, 'demo', 'demo-losenord', '198.51.100.70', undefined, token)).status,
    ).toBe(429);
  });
});

describe('registration', () => {
  it('hands out the device token, so the first login from the same device is spared an armed address brake', async () => {
    // The address brake scaled down from 30 to 3 usernames.
    server = await startTarget({
      build: { loginPolicy: { address: { free: 3, baseMs: 60_000, maxMs: 900_000 } } },
    });
    const url = server.url;
    const SCHOOL = '198.51.100.200';
    for (let i = 0; i < 3; i++) await tryLogin(url, `okand-${i}`, 'fel-losenord', SCHOOL);
    expect((await tryLogin(url, 'okand-x', 'fel-losenord', SCHOOL)).status).toBe(429);

    const username = `skolbarn-${Date.now() % 100_000}`;
    const password = 'Blå-Skolgård-Ballong-7';
    const registered = await callFrom(url, '/portal/api/accounts/registercontact', {
      body: { username, password, properties: { birthYear: '2012' } },
      address: SCHOOL,
    });
    expect(registered.status).toBe(201);
    const device = deviceOf(registered);

    // Another device at the school, without the token, is still braked, for this account too
    // (registering made the address no known-good one)...
    expect((await tryLogin(url, username, password, SCHOOL)).status).toBe(429);
    // ...while the device that registered signs in at once.
    const first = await tryLogin(url, username, password, SCHOOL, undefined, device);
    expect(first.status).toBe(200);
    // The school is now an address this account signed in from; to anyone else it is still braked.
    expect((await tryLogin(url, 'demo', 'demo-losenord', SCHOOL)).status).toBe(429);
    expect((await tryLogin(url, 'demo', 'demo-losenord', SCHOOL, undefined, device)).status).toBe(429);
  });
});
