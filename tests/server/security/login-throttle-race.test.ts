import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_POLICY } from '../../../server/auth/login-throttle.ts';
import { createTestDatabase, type TestServer } from '../../../harness/test-server.ts';
import { mostChecked, startTarget, tally, timed, tryLogin } from '../../../harness/attack.ts';

/**
 * Attack: a burst of parallel guesses, each read the limit before any failure was written, so all
 * of them were checked (150 of 150) and a right guess among 40 got tokens. Now each attempt is
 * reserved in the database before the password check, in one statement, so the limit holds across
 * parallel requests and across processes (two servers on one database here).
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let one: TestServer;
let two: TestServer;
beforeAll(async () => {
  database = await createTestDatabase();
  one = await startTarget({ databaseUrl: database.url });
  two = await startTarget({ databaseUrl: database.url });
});
afterAll(async () => {
  await one?.dispose();
  await two?.dispose();
  await database?.drop();
});

/** Every other request goes to the other process. */
const burst = (
  n: number,
  attempt: (url: string, i: number) => Promise<{ status: number; retryAfter: string | null }>,
) => Promise.all(Array.from({ length: n }, (_, i) => attempt(i % 2 ? two.url : one.url, i)));

describe('parallel login guesses', () => {
  it('checks at most the free attempts of one username from one address, over two processes', async () => {
    const { result: answers, elapsedMs } = await timed(() =>
      burst(150, (url, i) => tryLogin(url, 'demo', `fel-losenord-${i}`, '203.0.113.10')),
    );
    const counts = tally(answers.map((a) => a.status));
    expect(counts[400] ?? 0).toBeLessThanOrEqual(mostChecked(LOGIN_POLICY.pair, elapsedMs));
    expect(Object.keys(counts).sort()).toEqual(['400', '429']);
    for (const refused of answers.filter((a) => a.status === 429)) {
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    }
  });

  it('lets no right password through a burst beyond the free attempts', async () => {
    const guesses = Array.from({ length: 40 }, (_, i) => (i === 39 ? 'kurator-losenord' : `fel-${i}`));
    const { result: answers, elapsedMs } = await timed(() =>
      burst(40, (url, i) => tryLogin(url, 'kurator', guesses[i]!, '203.0.113.11', 'portal-staff')),
    );
    const checked = answers.filter((a) => a.status !== 429);
    expect(checked.length).toBeLessThanOrEqual(mostChecked(LOGIN_POLICY.pair, elapsedMs));
    // Only a right guess that happened to be among the few reserved attempts is checked and let in.
    expect([200, 429]).toContain(answers[39]!.status);
    expect(answers.filter((a) => a.status === 200).length).toBeLessThanOrEqual(1);
  });

  it('checks at most the free personal-code attempts from one address', async () => {
    const { result: answers, elapsedMs } = await timed(() =>
      burst(150, (url, i) => tryLogin(url, `GISSNING-${1000 + i}`, '', '203.0.113.12')),
    );
    const counts = tally(answers.map((a) => a.status));
    expect(counts[400] ?? 0).toBeLessThanOrEqual(mostChecked(LOGIN_POLICY.codeAddress, elapsedMs));
    expect((counts[400] ?? 0) + (counts[429] ?? 0)).toBe(150);
  });

  it('brakes one address spraying many usernames at once', async () => {
    const { result: answers, elapsedMs } = await timed(() =>
      burst(100, (url, i) => tryLogin(url, `ingen-${i}`, 'fel-losenord', '203.0.113.13')),
    );
    const counts = tally(answers.map((a) => a.status));
    expect(counts[400] ?? 0).toBeLessThanOrEqual(mostChecked(LOGIN_POLICY.address, elapsedMs));
    expect((counts[400] ?? 0) + (counts[429] ?? 0)).toBe(100);
  });
});
