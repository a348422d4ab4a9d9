import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANTI_FORGERY_COOKIE, ANTI_FORGERY_HEADER } from '../../../contract/anti-forgery.ts';
import { login, startTestServer, type TestServer } from '../test-server.ts';

/**
 * Attack: a page on another site makes the child's browser send a write to the API, riding on
 * whatever cookies the browser keeps for this site. SPEC §7's double submit: a write that carries
 * cookies must also carry the anti-forgery cookie's value in a header, which the other site's page
 * cannot read.
 */
let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer();
  token = (await login(server.url, 'demo', 'demo-losenord')).access_token;
});
afterAll(async () => server?.dispose());

const antiForgery = (cookie?: string) =>
  fetch(`${server.url}/portal/antiforgery`, {
    headers: { 'X-App-Variant': 'Barn', ...(cookie ? { Cookie: cookie } : {}) },
  });
const write = (headers: Record<string, string>) =>
  fetch(`${server.url}/portal/createclientlogs`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
      'X-App-Variant': 'Barn',
      ...headers,
    },
    body: JSON.stringify({ message: 'dubbel inlämning' }),
  });

describe('the anti-forgery double submit (SPEC §7)', () => {
  it('gives a browser without the cookie a new value in a cookie for this site only, and repeats the value it has', async () => {
    const first = await antiForgery();
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    const { token: value } = (await first.json()) as { token: string };
    expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.headers.get('set-cookie')).toBe(`${ANTI_FORGERY_COOKIE}=${value}; Path=/; SameSite=Strict`);

    const again = await antiForgery(`web_assistant-state=Inactive; ${ANTI_FORGERY_COOKIE}=${value}`);
    expect(((await again.json()) as { token: string }).token).toBe(value);
    expect(again.headers.get('set-cookie')).toBeNull();
    // A value the server did not make is replaced, not repeated.
    const planted = await antiForgery(`${ANTI_FORGERY_COOKIE}=planted`);
    expect(((await planted.json()) as { token: string }).token).not.toBe('planted');
  });

  it('refuses a write that rides on cookies without the value in the header, or with another value', async () => {
    const { token: value } = (await (await antiForgery()).json()) as { token: string };
    const cookie = `${ANTI_FORGERY_COOKIE}=${value}`;
    const attempts: Array<Record<string, string>> = [
      { Cookie: cookie },
      { Cookie: cookie, [ANTI_FORGERY_HEADER]: 'A'.repeat(43) },
      { Cookie: 'web_assistant-state=Active', [ANTI_FORGERY_HEADER]: value },
      // As long as a value, in other characters: refused, not a server error.
      { Cookie: cookie, [ANTI_FORGERY_HEADER]: 'ö'.repeat(43) },
    ];
    for (const headers of attempts) {
      const refused = await write(headers);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({
        error: 'anti_forgery',
        message: 'Sidan behöver laddas om. Ladda om sidan och försök igen.',
      });
    }
    const rows = await server.ctx.db
      .selectFrom('client_logs')
      .select('id')
      .where('message', '=', 'dubbel inlämning')
      .execute();
    expect(rows).toEqual([]);
  });

  it('takes a write whose header repeats the cookie, and one from a caller with no cookies at all', async () => {
    const { token: value } = (await (await antiForgery()).json()) as { token: string };
    expect(
      (await write({ Cookie: `${ANTI_FORGERY_COOKIE}=${value}`, [ANTI_FORGERY_HEADER]: value })).status,
    ).toBe(201);
    // Another app of the domain set a cookie of the same name on the parent domain, sent first.
    const foreign = 'F'.repeat(43);
    expect(
      (
        await write({
          Cookie: `${ANTI_FORGERY_COOKIE}=${foreign}; ${ANTI_FORGERY_COOKIE}=${value}`,
          [ANTI_FORGERY_HEADER]: value,
        })
      ).status,
    ).toBe(201);
    // A server or native client: no cookie a forged request could ride on; its bearer token is the proof.
    expect((await write({})).status).toBe(201);
    // Reads are never refused for it.
    const read = await fetch(`${server.url}/portal/accounts`, {
      headers: { Authorization: `Bearer ${token}`, 'X-App-Variant': 'Barn', Cookie: 'x=1' },
    });
    expect(read.status).toBe(200);
  });
});
