import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANTI_FORGERY_COOKIE } from '../../../contract/anti-forgery.ts';
import { AntiForgeryToken } from '../../../worker/http/anti-forgery.ts';
import { HttpClient } from '../../../worker/http/http-client.ts';
import { HttpError } from '../../../worker/http/http-error.ts';
import { login, startTestServer, type TestServer } from '../../../harness/test-server.ts';
import { browserFetch } from '../helpers.ts';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer();
  token = (await login(server.url, 'demo', 'demo-losenord')).access_token;
});
afterAll(async () => server?.dispose());

function client(fetchFn: typeof fetch, antiForgery = true) {
  const apiUrl = `${server.url}/portal`;
  return new HttpClient({
    apiUrl,
    variant: 'Barn',
    origin: server.url,
    fetch: fetchFn,
    accessToken: async () => token,
    ...(antiForgery
      ? { antiForgery: new AntiForgeryToken({ apiUrl, variant: 'Barn', fetch: fetchFn }) }
      : {}),
  });
}

const log = (http: HttpClient, message: string) => http.post('/createclientlogs', { message });
/**
 * A write no token proves (SPEC §6's public registration): the one kind the server still needs the
 * anti-forgery value for, since a bearer token proves every other write by itself.
 */
const register = (http: HttpClient, username: string) =>
  http.post(
    '/api/accounts/registercontact',
    {
      username,
      password: 'Grön-Tekanna-Dansar-7',
      properties: { birthYear: '2012', gender: 'female', device: 'Mobile' },
    },
    { public: true },
  );
const newUsername = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;

describe("the worker's anti-forgery header (SPEC §7)", () => {
  it("copies the browser's cookie value into its writes, asking the server for it once", async () => {
    const { jar, sent, fetchFn } = browserFetch(server.url);
    const http = client(fetchFn);
    await log(http, 'första');
    await log(http, 'andra');
    expect(jar.get(ANTI_FORGERY_COOKIE)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sent.map((s) => `${s.method} ${new URL(s.url).pathname} ${s.header ?? '-'}`)).toEqual([
      'GET /portal/antiforgery -',
      `POST /portal/createclientlogs ${jar.get(ANTI_FORGERY_COOKIE)}`,
      `POST /portal/createclientlogs ${jar.get(ANTI_FORGERY_COOKIE)}`,
    ]);
  });

  it('asks again and writes once more when the cookie was cleared and set anew meanwhile', async () => {
    const { jar, sent, fetchFn, replaceAntiForgeryCookie } = browserFetch(server.url);
    const http = client(fetchFn);
    const before = newUsername('fore');
    const after = newUsername('efter');
    await register(http, before);
    await replaceAntiForgeryCookie();
    sent.length = 0;
    await register(http, after);
    expect(sent.map((s) => `${s.method} ${new URL(s.url).pathname}`)).toEqual([
      'POST /portal/api/accounts/registercontact',
      'GET /portal/antiforgery',
      'POST /portal/api/accounts/registercontact',
    ]);
    expect(sent[2]!.header).toBe(jar.get(ANTI_FORGERY_COOKIE));
    const stored = await server.ctx.db
      .selectFrom('accounts')
      .select('username')
      .where('username', 'in', [before, after])
      .execute();
    expect(stored.map((r) => r.username).sort()).toEqual([after, before].sort());
  });

  it('takes a refusal it cannot renew now as no answer, so the outbox tries again rather than giving up', async () => {
    const { fetchFn, down, replaceAntiForgeryCookie } = browserFetch(server.url);
    const http = client(fetchFn);
    await register(http, newUsername('innan'));
    await replaceAntiForgeryCookie();
    down.antiForgery = true;
    const username = newUsername('driftstopp');
    const failed = await register(http, username).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(HttpError);
    expect((failed as HttpError).status).toBe(0);
    down.antiForgery = false;
    await register(http, username);
  });

  it('is what lets a write no token proves through: without it a browser registration is refused', async () => {
    const { fetchFn, replaceAntiForgeryCookie } = browserFetch(server.url);
    await replaceAntiForgeryCookie();
    const refused = await register(client(fetchFn, false), newUsername('utan')).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).status).toBe(403);
  });

  it('is not what a write the token proves needs: sent once, whatever the cookie became meanwhile', async () => {
    const { sent, fetchFn, replaceAntiForgeryCookie } = browserFetch(server.url);
    const http = client(fetchFn);
    await log(http, 'före bytet');
    await replaceAntiForgeryCookie();
    sent.length = 0;
    await log(http, 'efter bytet');
    // The header still carries the copy from before (SPEC §7); the server asks no more of it.
    expect(sent.map((s) => `${s.method} ${new URL(s.url).pathname}`)).toEqual([
      'POST /portal/createclientlogs',
    ]);
    await log(client(fetchFn, false), 'utan kopia');
    const stored = await server.ctx.db
      .selectFrom('client_logs')
      .select('message')
      .where('message', 'in', ['efter bytet', 'utan kopia'])
      .execute();
    expect(stored.map((r) => r.message).sort()).toEqual(['efter bytet', 'utan kopia']);
  });
});
