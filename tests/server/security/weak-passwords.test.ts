import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ERRORS } from '../../../contract/errors.ts';
import { api, type TestServer } from '../../../harness/test-server.ts';
import { callFrom, mostChecked, registerChild, startTarget, timed } from '../../../harness/attack.ts';

/**
 * Attack: guessing a password everyone picks. Eight spaces and '12345678' were accepted, and the
 * old password of a change could be guessed without limit through a stolen session. Now blank,
 * common and trivially guessable passwords are refused with a Swedish message, and guesses at the
 * old password are spaced out like login attempts.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTarget();
});
afterAll(async () => server?.dispose());

const register = (username: string, password: string) =>
  api(server.url, '/portal/api/accounts/registercontact', { body: { username, password, properties: {} } });

describe('new passwords', () => {
  const refused: Array<[string, keyof typeof API_ERRORS]> = [
    ['        ', 'weak_password'],
    ['   kort   ', 'weak_password'],
    ['a      b', 'weak_password'],
    ['12345678', 'common_password'],
    ['password', 'common_password'],
    ['qwerty123', 'common_password'],
    ['aaaaaaaaaa', 'common_password'],
    ['abcdefgh', 'common_password'],
    ['87654321', 'common_password'],
    ['Sommar2024!', 'common_password'],
    ['lösenord123', 'common_password'],
    ['hemligt-123', 'common_password'],
    ['nyanvandare-1', 'common_password'],
  ];
  for (const [password, code] of refused) {
    it(`refuses ${JSON.stringify(password)} at registration with ${code}`, async () => {
      const res = await register('nyanvandare', password);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: code, message: API_ERRORS[code].message });
    });
  }

  it('accepts a password nobody guesses first', async () => {
    expect((await register('nyanvandare', 'Grön-Tekanna-Dansar-7')).status).toBe(201);
  });

  it('refuses a common password at a change too, and keeps the old one', async () => {
    const child = await registerChild(server);
    const res = await api(server.url, '/portal/api/accounts/changePassword', {
      token: child.token,
      body: { oldPassword: child.password, password: '123456789' },
    });
    expect(res.body).toEqual({ error: 'common_password', message: API_ERRORS.common_password.message });
    expect((await api(server.url, '/portal/accounts', { token: child.token })).status).toBe(200);
  });
});

describe('the old password of a change', () => {
  it('cannot be guessed in a burst through a stolen session', async () => {
    const child = await registerChild(server);
    const { result: guesses, elapsedMs } = await timed(() =>
      Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          callFrom(server.url, '/portal/api/accounts/changePassword', {
            token: child.token,
            body: { oldPassword: `gissning-${i}`, password: 'Ny-Grön-Tekanna-7' },
          }),
        ),
      ),
    );
    const checked = guesses.filter((g) => g.status === 400);
    const waited = guesses.filter((g) => g.status === 429);
    expect(checked.length).toBeLessThanOrEqual(mostChecked(server.ctx.throttle.policy.pair, elapsedMs));
    expect(checked.length + waited.length).toBe(30);
    expect(Number(waited[0]!.retryAfter)).toBeGreaterThan(0);
    expect(waited[0]!.body!.message).toBe(API_ERRORS.too_many_requests.message);
  });
});
