import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_POLICY } from '../../../server/auth/login-throttle.ts';
import { CLIENT_ID, SCOPE, type TestServer } from '../../../harness/test-server.ts';
import { startTarget } from '../../../harness/attack.ts';

/**
 * Attack: a page on another site makes the child's own browser post wrong passwords for the child's
 * username to the token endpoint. A urlencoded POST needs no CORS preflight, so the browser sends it,
 * from the child's own address: counted, those guesses armed the brake on that username and address,
 * and the child's right password then got 429 on the child's own device. A token request whose
 * Origin is another site is now refused before anything is counted.
 */
const SITE = 'https://stod.example';
const HOME = '198.51.100.7';

let server: TestServer;
beforeAll(async () => {
  server = await startTarget({ config: { publicOrigin: SITE } });
});
afterAll(async () => server?.dispose());

async function post(path: string, form: Record<string, string>, headers: Record<string, string>) {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': HOME, ...headers },
    body: new URLSearchParams(form),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

const passwordForm = (password: string) => ({
  grant_type: 'password',
  client_id: CLIENT_ID,
  scope: SCOPE,
  username: 'demo',
  password,
});

describe('the token endpoint posted from another site', () => {
  it('refuses every guess, counts none, and the child then signs in from the same address', async () => {
    // Far more than the free attempts of one username from one address, all at once.
    const guesses = LOGIN_POLICY.pair.free * 10;
    const answers = await Promise.all(
      Array.from({ length: guesses }, (_, i) =>
        post('/connect/token', passwordForm(`fel-${i}`), { Origin: 'https://evil.example' }),
      ),
    );
    for (const answer of answers) {
      expect(answer).toEqual({
        status: 403,
        body: { error: 'invalid_request', error_description: 'foreign_origin' },
      });
    }
    // A sandboxed frame or a privacy redirect sends the opaque origin 'null': not the site either.
    expect((await post('/connect/token', passwordForm('fel'), { Origin: 'null' })).status).toBe(403);

    const own = await post('/connect/token', passwordForm('demo-losenord'), { Origin: SITE });
    expect(own.status).toBe(200);
    expect(own.body).toHaveProperty('access_token');
  });

  it('still takes a native client, which sends no Origin', async () => {
    const native = await post('/connect/token', passwordForm('demo-losenord'), {});
    expect(native.status).toBe(200);
  });

  it('refuses a revocation posted from another site', async () => {
    const own = await post('/connect/token', passwordForm('demo-losenord'), { Origin: SITE });
    const refresh = String(own.body?.refresh_token);
    const foreign = await post(
      '/connect/revocation',
      { token: refresh, token_type_hint: 'refresh_token', client_id: CLIENT_ID },
      { Origin: 'https://evil.example' },
    );
    expect(foreign.status).toBe(403);
    // The refresh token was not revoked: it still gets new tokens.
    const refreshed = await post(
      '/connect/token',
      { grant_type: 'refresh_token', client_id: CLIENT_ID, refresh_token: refresh },
      { Origin: SITE },
    );
    expect(refreshed.status).toBe(200);
  });
});
