import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient, type HttpDeps } from '../../../worker/http/http-client.ts';
import { HttpError, parseRetryAfter, refusalOf } from '../../../worker/http/http-error.ts';

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

function setup(answer: (call: Call) => Response | Promise<Response>, deps: Partial<HttpDeps> = {}) {
  const calls: Call[] = [];
  const reported: HttpError[] = [];
  const http = new HttpClient({
    apiUrl: 'https://app.example/portal',
    variant: 'Gruppstod',
    origin: 'https://app.example',
    accessToken: async () => 'tok',
    antiForgery: { token: async () => 'xsrf-1', renew: async () => undefined },
    reportError: (e) => reported.push(e),
    fetch: async (input, init) => {
      const call = {
        url: String(input),
        method: init?.method ?? 'GET',
        headers: (init?.headers ?? {}) as Record<string, string>,
        body: init?.body,
      };
      calls.push(call);
      return answer(call);
    },
    ...deps,
  });
  return { http, calls, reported };
}

const json = (value: unknown, status = 200) =>
  new Response(JSON.stringify(value), { status, headers: { 'Content-Type': 'application/json' } });

describe('http client (SPEC §7)', () => {
  it('GET with params, variant header and bearer, and no anti-forgery header', async () => {
    const { http, calls } = setup(() => json({ value: [1] }));
    expect(
      await http.get('/api/notifications', { params: { take: 1000, entity: undefined, a: 'x y' } }),
    ).toEqual({
      value: [1],
    });
    expect(calls[0]).toMatchObject({
      url: 'https://app.example/portal/api/notifications?take=1000&a=x+y',
      method: 'GET',
      headers: { 'X-App-Variant': 'Gruppstod', Authorization: 'Bearer tok' },
    });
    expect(calls[0]?.headers['X-XSRF-TOKEN']).toBeUndefined();
  });

  it('public calls carry no token; JSON writes carry content type and the anti-forgery cookie', async () => {
    const { http, calls } = setup(() => json({ available: true }));
    await http.post('/api/accounts/verifyusername', { username: 'a' }, { public: true });
    expect(calls[0]?.headers.Authorization).toBeUndefined();
    expect(calls[0]).toMatchObject({
      method: 'POST',
      body: '{"username":"a"}',
      headers: { 'Content-Type': 'application/json', 'X-XSRF-TOKEN': 'xsrf-1', 'X-App-Variant': 'Gruppstod' },
    });
    await http.put('/x', { a: 1 });
    await http.delete('/y');
    expect(calls.map((c) => [c.method, c.headers['X-XSRF-TOKEN']])).toEqual([
      ['POST', 'xsrf-1'],
      ['PUT', 'xsrf-1'],
      ['DELETE', 'xsrf-1'],
    ]);
  });

  it('sends no anti-forgery header to another origin', async () => {
    const { http, calls } = setup(() => json({}));
    await http.post('https://elsewhere.example/api', {});
    expect(calls[0]?.headers['X-XSRF-TOKEN']).toBeUndefined();
  });

  it('multipart lets FormData set its own content type; text, blob and POST download read the body', async () => {
    const { http, calls } = setup((call) =>
      call.url.endsWith('/text') ? new Response('hej') : new Response(new Uint8Array([1, 2, 3])),
    );
    const form = new FormData();
    form.set('Subject', 's');
    await http.postMultipart('/meetingmessage', form);
    expect(calls[0]?.headers['Content-Type']).toBeUndefined();
    expect(calls[0]?.body).toBe(form);
    expect(await http.getText('/text')).toBe('hej');
    expect((await http.getBlob('/file')).size).toBe(3);
    expect((await http.postDownload('/download', { id: 1 })).size).toBe(3);
  });

  it('reports a failure and rethrows it as a value with status', async () => {
    const { http, reported } = setup(() => json({ error: 'not_found', message: 'Hittades inte' }, 404));
    const error = await http.get('/missing').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 404, message: '404 Hittades inte', body: { error: 'not_found' } });
    expect(reported).toEqual([error]);
  });

  it("carries a 429's Retry-After and its { error, message } body", async () => {
    const body = { error: 'rate_limited', message: 'Du har skickat många gånger på kort tid.' };
    const { http } = setup(
      () =>
        new Response(JSON.stringify(body), {
          status: 429,
          headers: { 'Content-Type': 'application/json', 'Retry-After': '30' },
        }),
    );
    const error = await http.post('/conversationmessage', {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 30_000 });
    // rate_limited reaches the child by its status: the command reads the text, not the code.
    expect(refusalOf(error)).toEqual({ code: null, message: body.message });
    const plain = await setup(() => json({ error: 'x' }, 500))
      .http.get('/a')
      .catch((e: unknown) => e);
    expect(plain).toMatchObject({ status: 500, retryAfterMs: null });
    expect(refusalOf(plain)).toBeNull();
  });

  it('hands a command the codes it tells apart, and no other', async () => {
    const body = { error: 'wrong_password', message: 'Fel lösenord.' };
    const error = await setup(() => json(body, 400))
      .http.post('/accounts/changePassword', {})
      .catch((e: unknown) => e);
    expect(refusalOf(error)).toEqual({ code: 'wrong_password', message: 'Fel lösenord.' });
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-05-01T10:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Fri, 01 May 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Fri, 01 May 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
  });

  it('sends a token it is given instead of asking the session', async () => {
    let asked = 0;
    const { http, calls } = setup(() => json({}), {
      accessToken: async () => {
        asked++;
        return 'tok';
      },
    });
    await http.post('/api/accounts/changePassword', {}, { token: 'given' });
    expect(calls[0]?.headers.Authorization).toBe('Bearer given');
    expect(asked).toBe(0);
  });

  it('turns a network failure into status 0 Unknown Error; report:false stays silent', async () => {
    const { http, reported } = setup(() => {
      throw new TypeError('fetch failed');
    });
    await expect(http.post('/createclientlogs', {}, { report: false })).rejects.toMatchObject({
      status: 0,
      message: 'Unknown Error',
    });
    expect(reported).toEqual([]);
  });

  describe('a request that never ends', () => {
    // A real server that takes requests and then stalls: before its headers, or halfway through a body.
    let server: http.Server;
    let origin = '';
    const arrived: string[] = [];
    beforeAll(async () => {
      server = http.createServer((req, res) => {
        arrived.push(`${req.method} ${req.url}`);
        if (req.url?.startsWith('/portal/half')) {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.write('{"value": [');
        }
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });

    const client = (timeoutMs: number, reported: HttpError[]) =>
      new HttpClient({
        apiUrl: `${origin}/portal`,
        variant: 'Barn',
        origin,
        accessToken: async () => 'tok',
        fetch: (input, init) => fetch(input, init),
        reportError: (e) => reported.push(e),
        timeoutMs,
      });

    it('is given up as no answer (status 0) after its timeout, and reported', async () => {
      const reported: HttpError[] = [];
      const started = Date.now();
      await expect(
        client(300, reported).post('/conversationmessage', { content: 'hej' }),
      ).rejects.toMatchObject({
        status: 0,
        message: 'Unknown Error',
      });
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      expect(arrived).toContain('POST /portal/conversationmessage');
      expect(reported.map((e) => e.status)).toEqual([0]);
    });

    it('counts an answer whose body stalls as no answer too', async () => {
      await expect(client(300, []).get('/half')).rejects.toMatchObject({ status: 0 });
    });

    it('takes a per-call timeout over the default', async () => {
      const started = Date.now();
      await expect(client(60_000, []).get('/slow', { timeoutMs: 200 })).rejects.toMatchObject({ status: 0 });
      expect(Date.now() - started).toBeLessThan(10_000);
    });
  });
});
