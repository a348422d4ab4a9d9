import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ANTI_FORGERY_COOKIE,
  ANTI_FORGERY_HEADER,
  ANTI_FORGERY_HOST_COOKIE,
} from '../../../contract/anti-forgery.ts';
import { login, startTestServer, type TestServer } from '../../../harness/test-server.ts';

/**
 * Attack: a page on another site makes the child's browser send a write to the API, riding on
 * whatever cookies the browser keeps for this site. SPEC §7's double submit: a write that carries
 * cookies, and no bearer token the route verifies, must also carry the anti-forgery cookie's value
 * in a header, which the other site's page cannot read.
 *
 * Attack: cookie tossing. A page of a sibling subdomain, of another app on the same host, or an
 * injected plain-http answer plants `XSRF-TOKEN` with `Path=/portal/antiforgery`: the browser sends
 * it before ours (the longer path first) to the renewal only, so a renewal that repeats the first
 * value hands out one that writes never carry, and every write is refused for the cookie's life.
 */
let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer();
  token = (await login(server.url, 'demo', 'demo-losenord')).access_token;
});
afterAll(async () => server?.dispose());

const antiForgery = (cookie?: string, url = server.url) =>
  fetch(`${url}/portal/antiforgery`, {
    headers: { 'X-App-Variant': 'Barn', ...(cookie ? { Cookie: cookie } : {}) },
  });
const valueOf = async (answer: Response) => ((await answer.json()) as { token: string }).token;
const write = (headers: Record<string, string>, path = '/portal/createclientlogs', body: unknown = null) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
      'X-App-Variant': 'Barn',
      ...headers,
    },
    body: JSON.stringify(body ?? { message: 'dubbel inlämning' }),
  });
/** A write no token proves: a registration, as the child's browser posts it. */
const register = (username: string, headers: Record<string, string>) =>
  fetch(`${server.url}/portal/api/accounts/registercontact`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-App-Variant': 'Barn', ...headers },
    body: JSON.stringify({
      username,
      password: 'Grön-Tekanna-Dansar-7',
      properties: { birthYear: '2012', gender: 'female', device: 'Mobile' },
    }),
  });
const accountExists = async (username: string) =>
  !!(await server.ctx.db
    .selectFrom('accounts')
    .select('id')
    .where('username', '=', username)
    .executeTakeFirst());
const newUsername = () => `dubbel-${randomUUID().slice(0, 8)}`;
const REFUSED = {
  error: 'anti_forgery',
  message: 'Sidan behöver laddas om. Ladda om sidan och försök igen.',
};
/** What a planted value looks like: the server's own shape (the attacker may have asked for one). */
const planted = () => `P${randomUUID().replaceAll('-', '')}${'p'.repeat(10)}`;

describe('the anti-forgery double submit (SPEC §7)', () => {
  it('gives a browser without the cookie a new value in a cookie for this site only, and repeats the value it has', async () => {
    const first = await antiForgery();
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    const value = await valueOf(first);
    expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.headers.get('set-cookie')).toBe(`${ANTI_FORGERY_COOKIE}=${value}; Path=/; SameSite=Strict`);

    const again = await antiForgery(`web_assistant-state=Inactive; ${ANTI_FORGERY_COOKIE}=${value}`);
    expect(await valueOf(again)).toBe(value);
    // Set again where every write carries it (a no-op for a cookie that is there already).
    expect(again.headers.get('set-cookie')).toBe(`${ANTI_FORGERY_COOKIE}=${value}; Path=/; SameSite=Strict`);
    // A value the server did not make is replaced, not repeated.
    const made = await antiForgery(`${ANTI_FORGERY_COOKIE}=planted`);
    expect(await valueOf(made)).not.toBe('planted');
  });

  it('refuses a write no token proves that rides on cookies without the value in the header, or with another value', async () => {
    const value = await valueOf(await antiForgery());
    const cookie = `${ANTI_FORGERY_COOKIE}=${value}`;
    const attempts: Array<Record<string, string>> = [
      { Cookie: cookie },
      { Cookie: cookie, [ANTI_FORGERY_HEADER]: 'A'.repeat(43) },
      { Cookie: 'web_assistant-state=Active', [ANTI_FORGERY_HEADER]: value },
      // As long as a value, in other characters: refused, not a server error.
      { Cookie: cookie, [ANTI_FORGERY_HEADER]: 'ö'.repeat(43) },
    ];
    for (const headers of attempts) {
      const username = newUsername();
      const refused = await register(username, headers);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual(REFUSED);
      expect(await accountExists(username)).toBe(false);
    }
    const username = newUsername();
    expect((await register(username, { Cookie: cookie, [ANTI_FORGERY_HEADER]: value })).status).toBe(201);
    expect(await accountExists(username)).toBe(true);
  });

  it('takes a write whose header repeats the cookie, and one from a caller with no cookies at all', async () => {
    const value = await valueOf(await antiForgery());
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

  it('takes a write that a verified bearer token proves whatever its cookies say, and refuses a token it cannot verify', async () => {
    const value = await valueOf(await antiForgery());
    const stale = { Cookie: `${ANTI_FORGERY_COOKIE}=${value}`, [ANTI_FORGERY_HEADER]: planted() };
    expect((await write(stale)).status).toBe(201);
    expect((await write({ Cookie: `${ANTI_FORGERY_COOKIE}=${value}` })).status).toBe(201);
    // Only a token the route verifies: any other is refused before the body is read.
    const forged = await write({ ...stale, Authorization: 'Bearer not-a-token' });
    expect(forged.status).toBe(401);
  });
});

describe('a planted anti-forgery cookie (cookie tossing)', () => {
  /**
   * The renewal as the browser sends it with `cookies` (a planted value at a longer path comes
   * first). Answers the value handed out and the one the browser then holds at `Path=/`, which is
   * what every later write carries: the answer's own cookie if it set one there, else `atRoot`.
   */
  async function renew(cookies: string, atRoot: string | null) {
    const answer = await antiForgery(cookies);
    expect(answer.status).toBe(200);
    const set = /^XSRF-TOKEN=([^;]*); Path=\/;/.exec(answer.headers.get('set-cookie') ?? '');
    return { value: await valueOf(answer), atRoot: set ? set[1]! : atRoot };
  }
  /** The headers of a write as the browser sends it after the renewal: the header, and the cookies of `Path=/`. */
  const carried = (value: string, atRoot: string | null) => ({
    Cookie: ['web_assistant-state=Inactive', ...(atRoot ? [`${ANTI_FORGERY_COOKIE}=${atRoot}`] : [])].join(
      '; ',
    ),
    [ANTI_FORGERY_HEADER]: value,
  });

  it('beside ours, in either order, leaves the renewal with a value every write carries: the mail, the message and a registration go through', async () => {
    for (const order of ['planted first', 'ours first'] as const) {
      const ours = await valueOf(await antiForgery());
      const tossed = planted();
      const both =
        order === 'planted first'
          ? `${ANTI_FORGERY_COOKIE}=${tossed}; ${ANTI_FORGERY_COOKIE}=${ours}`
          : `${ANTI_FORGERY_COOKIE}=${ours}; ${ANTI_FORGERY_COOKIE}=${tossed}`;
      const { value, atRoot } = await renew(`web_assistant-state=Inactive; ${both}`, ours);
      // Which one was ours the header cannot say: the planted one is never handed out.
      expect(value).not.toBe(tossed);
      const headers = carried(value, atRoot);
      const mail = await write(headers, '/portal/mail', { subject: `Tossad ${order}`, text: 'Hej' });
      expect(mail.status).toBe(200);
      const { id } = (await mail.json()) as { id: string };
      const message = await write(headers, '/portal/conversationmessage', {
        conversation: id,
        content: `Andra meddelandet, ${order}`,
        loggedDate: new Date().toISOString(),
      });
      expect(message.status).toBe(201);
      const username = newUsername();
      const registered = await register(username, headers);
      expect(registered.status).toBe(201);
      expect(await accountExists(username)).toBe(true);
      // A planted cookie whose path covers the writes too rides along with ours: still taken.
      const covered = { ...headers, Cookie: `${ANTI_FORGERY_COOKIE}=${tossed}; ${headers.Cookie}` };
      expect((await register(newUsername(), covered)).status).toBe(201);
    }
  });

  it('alone (ours never set, or at another path) is set at Path=/ by the renewal, so the writes after it carry it', async () => {
    const tossed = planted();
    const { value, atRoot } = await renew(
      `web_assistant-state=Inactive; ${ANTI_FORGERY_COOKIE}=${tossed}`,
      null,
    );
    const headers = carried(value, atRoot);
    expect((await write(headers)).status).toBe(201);
    const username = newUsername();
    expect((await register(username, headers)).status).toBe(201);
    expect(await accountExists(username)).toBe(true);
    // A planted value at a shorter path (a sibling's `Domain=` cookie at `/`, sent after ours)
    // beside the one the renewal set: the renewal answers a value the writes carry.
    const shorter = await renew(`${ANTI_FORGERY_COOKIE}=${atRoot}; ${ANTI_FORGERY_COOKIE}=${tossed}`, atRoot);
    const after = carried(shorter.value, shorter.atRoot);
    const both = { ...after, Cookie: `${after.Cookie}; ${ANTI_FORGERY_COOKIE}=${tossed}` };
    expect((await register(newUsername(), both)).status).toBe(201);
  });

  it('cannot refuse a write the child’s token proves, even with the planted value in the header', async () => {
    // What a page that copied the planted value before this fix sends: refused only for want of a cookie.
    const ours = await valueOf(await antiForgery());
    const mail = await write(carried(planted(), ours), '/portal/mail', {
      subject: 'Gammal kopia',
      text: 'Hej',
    });
    expect(mail.status).toBe(200);
  });

  it('still refuses a real forgery: a write from another site’s page, and one whose header is not a value it carries', async () => {
    const ours = await valueOf(await antiForgery());
    const tossed = planted();
    const cookies = `${ANTI_FORGERY_COOKIE}=${tossed}; ${ANTI_FORGERY_COOKIE}=${ours}`;
    // A form another site's page posts: its Origin, the child's cookies, no header, no token.
    const username = newUsername();
    const fromAnotherSite = await fetch(`${server.url}/portal/api/accounts/registercontact`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', Origin: 'https://evil.example', Cookie: cookies },
      body: JSON.stringify({ username, password: 'Grön-Tekanna-Dansar-7' }),
    });
    expect(fromAnotherSite.status).toBe(403);
    expect(((await fromAnotherSite.json()) as { error: string }).error).toBe('foreign_origin');
    // The same without an Origin (an old browser), or with a value the attacker knows but the
    // browser does not carry there: the double submit refuses it.
    const guessed = await register(username, { Cookie: `${ANTI_FORGERY_COOKIE}=${ours}` });
    expect(guessed.status).toBe(403);
    expect(await guessed.json()).toEqual(REFUSED);
    const known = await register(username, {
      Cookie: `${ANTI_FORGERY_COOKIE}=${ours}`,
      [ANTI_FORGERY_HEADER]: tossed,
    });
    expect(known.status).toBe(403);
    expect(await accountExists(username)).toBe(false);
    // A write to the child's own routes without the child's token rides on nothing.
    const tokenless = await fetch(`${server.url}/portal/createclientlogs`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-App-Variant': 'Barn', Cookie: cookies },
      body: JSON.stringify({ message: 'förfalskad' }),
    });
    expect(tokenless.status).toBe(401);
    const rows = await server.ctx.db
      .selectFrom('client_logs')
      .select('id')
      .where('message', '=', 'förfalskad')
      .execute();
    expect(rows).toEqual([]);
  });
});

describe('the anti-forgery cookie of a site served over https', () => {
  let secure: TestServer;
  beforeAll(async () => {
    secure = await startTestServer({ config: { publicOrigin: 'https://stod.example' } });
  });
  afterAll(async () => secure?.dispose());

  it('is a __Host- cookie, which only this host’s secure pages can set, and the only one read', async () => {
    const first = await antiForgery(undefined, secure.url);
    const value = await valueOf(first);
    expect(first.headers.get('set-cookie')).toBe(
      `${ANTI_FORGERY_HOST_COOKIE}=${value}; Path=/; SameSite=Strict; Secure`,
    );
    // A plain `XSRF-TOKEN` (any sibling subdomain or plain-http answer can set one) is not ours here.
    const tossed = planted();
    const again = await antiForgery(
      `${ANTI_FORGERY_COOKIE}=${tossed}; ${ANTI_FORGERY_HOST_COOKIE}=${value}`,
      secure.url,
    );
    expect(await valueOf(again)).toBe(value);
    const username = newUsername();
    const register = (headers: Record<string, string>) =>
      fetch(`${secure.url}/portal/api/accounts/registercontact`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-App-Variant': 'Barn', ...headers },
        body: JSON.stringify({
          username,
          password: 'Grön-Tekanna-Dansar-7',
          properties: { birthYear: '2012', gender: 'female', device: 'Mobile' },
        }),
      });
    const cookies = `${ANTI_FORGERY_COOKIE}=${tossed}; ${ANTI_FORGERY_HOST_COOKIE}=${value}`;
    expect((await register({ Cookie: cookies, [ANTI_FORGERY_HEADER]: tossed })).status).toBe(403);
    expect((await register({ Cookie: cookies, [ANTI_FORGERY_HEADER]: value })).status).toBe(201);
  });
});
