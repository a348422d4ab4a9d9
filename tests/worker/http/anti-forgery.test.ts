import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANTI_FORGERY_COOKIE } from '../../../contract/anti-forgery.ts';
import { AntiForgeryToken } from '../../../worker/http/anti-forgery.ts';
import { HttpClient } from '../../../worker/http/http-client.ts';
import { HttpError } from '../../../worker/http/http-error.ts';
import { login, startTestServer, type TestServer } from '../../server/test-server.ts';
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
    await log(http, 'före');
    await replaceAntiForgeryCookie();
    sent.length = 0;
    await log(http, 'efter');
    expect(sent.map((s) => `${s.method} ${new URL(s.url).pathname}`)).toEqual([
      'POST /portal/createclientlogs',
      'GET /portal/antiforgery',
      'POST /portal/createclientlogs',
    ]);
    expect(sent[2]!.header).toBe(jar.get(ANTI_FORGERY_COOKIE));
    const stored = await server.ctx.db
      .selectFrom('client_logs')
      .select('message')
      .where('message', 'in', ['före', 'efter'])
      .execute();
    expect(stored.map((r) => r.message).sort()).toEqual(['efter', 'före']);
  });

  it('takes a refusal it cannot renew now as no answer, so the outbox tries again rather than giving up', async () => {
    const { fetchFn, down, replaceAntiForgeryCookie } = browserFetch(server.url);
    const http = client(fetchFn);
    await log(http, 'innan');
    await replaceAntiForgeryCookie();
    down.antiForgery = true;
    const failed = await log(http, 'under driftstopp').catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(HttpError);
    expect((failed as HttpError).status).toBe(0);
    down.antiForgery = false;
    await log(http, 'under driftstopp');
  });

  it('is what lets a write through: without it a browser write is refused', async () => {
    const { fetchFn, replaceAntiForgeryCookie } = browserFetch(server.url);
    await replaceAntiForgeryCookie();
    const refused = await log(client(fetchFn, false), 'utan').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).status).toBe(403);
  });
});
