import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { HubConnection } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_TOKEN_HINT, exitHandleOf } from '../../../contract/quick-exit.ts';
import { accountIdOf, loadSubject } from '../../../server/auth/accounts.ts';
import { migrateToLatest, openDatabase, type OpenDatabase } from '../../../server/db/database.ts';
import { seedDemoData } from '../../../server/db/seed.ts';
import { connectedHub } from '../hub/helpers.ts';
import {
  api,
  CLIENT_ID,
  createTestDatabase,
  login,
  refreshRequest,
  SCOPE,
  startTestServer,
  type TestServer,
  type Tokens,
} from '../../../harness/test-server.ts';

/**
 * The quick exit ('Lämna sidan') ends the child's login at the server as the page goes: the page
 * posts the login's exit handle (contract/quick-exit.ts), a revoke-only value derived from a
 * refresh token, to the revocation endpoint with a keepalive fetch. The handle ends the whole login
 * and does nothing else; the page never holds the refresh token for it.
 */
let server: TestServer;
const hubs: HubConnection[] = [];
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await Promise.all(hubs.map((h) => h.stop()));
  await server?.dispose();
});

const childLogin = () => login(server.url, 'demo', 'demo-losenord');

interface Target {
  /** The server's origin (the suite's server unless a test starts its own). */
  url?: string;
  /** The Origin header: the page's own, the server's origin, unless a test says otherwise. */
  origin?: string;
}

/**
 * A revocation as the page's `fetch(url, { method: 'POST', keepalive: true, body: URLSearchParams })`
 * sends it: the form and the headers the browser adds (its type, the page's Origin), nothing else:
 * no X-App-Variant, no Authorization.
 */
async function revoke(form: Record<string, string>, { url = server.url, origin = url }: Target = {}) {
  const res = await fetch(`${url}/connect/revocation`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded;charset=UTF-8', Origin: origin },
    body: new URLSearchParams(form),
  });
  const text = await res.text();
  return {
    status: res.status,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
    clearSiteData: res.headers.get('clear-site-data'),
  };
}

/** The quick exit's post to the server at `url`: the handle with its hint, as `clientId` from `origin`. */
const exit = (
  handle: string,
  { clientId = CLIENT_ID, url = server.url, origin = url }: Target & { clientId?: string } = {},
) => revoke({ token: handle, token_type_hint: EXIT_TOKEN_HINT, client_id: clientId }, { url, origin });

/** The token endpoint's answer to a refresh token that does not (or no longer) work. */
const REFUSED = { status: 400, body: { error: 'invalid_grant' } };
const digest = (token: string) => createHash('sha256').update(token).digest('base64url');
const apiStatus = async (token: string) => (await api(server.url, '/portal/accounts', { token })).status;
const userinfoStatus = async (token: string) =>
  (await fetch(`${server.url}/connect/userinfo`, { headers: { Authorization: `Bearer ${token}` } })).status;

async function refreshed(refreshToken: string): Promise<Tokens> {
  const res = await refreshRequest(server.url, refreshToken);
  expect(res.status).toBe(200);
  return res.body as unknown as Tokens;
}

/** Every stored token of the login `refreshToken` belongs to (its refresh-token family). */
async function familyRows(refreshToken: string) {
  const { db } = server.ctx;
  const { family_id } = await db
    .selectFrom('refresh_tokens')
    .select('family_id')
    .where('token_digest', '=', digest(refreshToken))
    .executeTakeFirstOrThrow();
  return db
    .selectFrom('refresh_tokens')
    .select(['token_digest', 'exit_digest', 'revoked_date'])
    .where('family_id', '=', family_id)
    .orderBy('id')
    .execute();
}

/** 'ended': every token of the login revoked in the database; 'alive': none of them. */
async function loginState(refreshToken: string): Promise<'ended' | 'alive' | 'partly revoked'> {
  const rows = await familyRows(refreshToken);
  if (rows.every((r) => r.revoked_date !== null)) return 'ended';
  return rows.every((r) => r.revoked_date === null) ? 'alive' : 'partly revoked';
}

const connected = (token: string) => connectedHub(server.url, token, hubs);

/** The login still works (API and refresh), and then its handle still ends it: nothing was spoiled. */
async function expectLoginGoesOnThenEnds(tokens: Tokens) {
  expect(await loginState(tokens.refresh_token)).toBe('alive');
  expect(await apiStatus(tokens.access_token)).toBe(200);
  const next = await refreshed(tokens.refresh_token);
  expect((await exit(await exitHandleOf(tokens.refresh_token))).status).toBe(200);
  expect(await loginState(tokens.refresh_token)).toBe('ended');
  expect(await refreshRequest(server.url, next.refresh_token)).toMatchObject(REFUSED);
}

describe('the exit handle of a login', () => {
  it('ends the login: its refresh token, its access token on the API and userinfo, its hub connection', async () => {
    const tokens = await childLogin();
    const hub = await connected(tokens.access_token);
    expect(await apiStatus(tokens.access_token)).toBe(200);
    expect(await userinfoStatus(tokens.access_token)).toBe(200);

    // Only the form and the page's own Origin: what a keepalive fetch from the page carries.
    const res = await exit(await exitHandleOf(tokens.refresh_token));

    expect(res).toEqual({ status: 200, body: null, clearSiteData: '"cache"' });
    expect(await loginState(tokens.refresh_token)).toBe('ended');
    await expect(hub.closed).resolves.toBeDefined();
    expect(await refreshRequest(server.url, tokens.refresh_token)).toMatchObject(REFUSED);
    expect(await apiStatus(tokens.access_token)).toBe(401);
    expect(await userinfoStatus(tokens.access_token)).toBe(401);
    await expect(connected(tokens.access_token)).rejects.toThrow();
  });

  it('is stored for every refresh token, and the first one still ends the login after two rotations', async () => {
    const first = await childLogin();
    const handle = await exitHandleOf(first.refresh_token);
    const second = await refreshed(first.refresh_token);
    const third = await refreshed(second.refresh_token);
    // Each token of the login has a handle of its own, kept only as its digest.
    const expected = await Promise.all(
      [first, second, third].map(async (t) => ({
        token_digest: digest(t.refresh_token),
        exit_digest: digest(await exitHandleOf(t.refresh_token)),
        revoked_date: null,
      })),
    );
    expect(await familyRows(first.refresh_token)).toEqual(expected);

    // The tab kept the handle it got at sign-in.
    expect((await exit(handle)).status).toBe(200);

    expect(await loginState(third.refresh_token)).toBe('ended');
    expect(await refreshRequest(server.url, third.refresh_token)).toMatchObject(REFUSED);
    expect(await apiStatus(third.access_token)).toBe(401);
  });

  it('is found without a hint too, after the access-token and refresh-token lookups find nothing', async () => {
    const tokens = await childLogin();
    const res = await revoke({ token: await exitHandleOf(tokens.refresh_token), client_id: CLIENT_ID });
    expect(res.status).toBe(200);
    expect(await loginState(tokens.refresh_token)).toBe('ended');
    expect(await apiStatus(tokens.access_token)).toBe(401);
  });

  it('ends only its own login: another login of the same child goes on', async () => {
    const phone = await childLogin();
    const tablet = await childLogin();
    expect((await exit(await exitHandleOf(phone.refresh_token))).status).toBe(200);
    expect(await loginState(phone.refresh_token)).toBe('ended');
    expect(await apiStatus(phone.access_token)).toBe(401);
    await expectLoginGoesOnThenEnds(tablet);
  });
});

describe('an exit handle misused', () => {
  it('is no refresh token: the token endpoint refuses it, the API too, and the login goes on', async () => {
    const tokens = await childLogin();
    const handle = await exitHandleOf(tokens.refresh_token);
    expect(await refreshRequest(server.url, handle)).toMatchObject(REFUSED);
    expect(await apiStatus(handle)).toBe(401);
    await expectLoginGoesOnThenEnds(tokens);
  });

  it('of another client is refused with unauthorized_client and revokes nothing', async () => {
    const tokens = await childLogin();
    const res = await exit(await exitHandleOf(tokens.refresh_token), { clientId: 'portal-staff' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'unauthorized_client' });
    await expectLoginGoesOnThenEnds(tokens);
  });

  it('posted from another site’s page is refused with 403 and revokes nothing', async () => {
    const tokens = await childLogin();
    const res = await exit(await exitHandleOf(tokens.refresh_token), { origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: 'invalid_request', error_description: 'foreign_origin' });
    await expectLoginGoesOnThenEnds(tokens);
  });

  it('that the server does not know is answered 200 and changes nothing', async () => {
    const tokens = await childLogin();
    const revokedRows = async () =>
      (
        await server.ctx.db
          .selectFrom('refresh_tokens')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('revoked_date', 'is not', null)
          .executeTakeFirstOrThrow()
      ).n;
    const before = Number(await revokedRows());
    const unknown = await exitHandleOf(randomBytes(32).toString('base64url'));
    expect(await exit(unknown)).toEqual({ status: 200, body: null, clearSiteData: '"cache"' });
    expect(Number(await revokedRows())).toBe(before);
    await expectLoginGoesOnThenEnds(tokens);
  });
});

describe('a token sent with the exit hint', () => {
  it('an access token ends only itself, as with any hint: its login goes on', async () => {
    const tokens = await childLogin();
    expect((await exit(tokens.access_token)).status).toBe(200);
    expect(await apiStatus(tokens.access_token)).toBe(401);
    const next = await refreshed(tokens.refresh_token);
    expect(await apiStatus(next.access_token)).toBe(200);
    expect(await loginState(tokens.refresh_token)).toBe('alive');
    expect((await exit(await exitHandleOf(next.refresh_token))).status).toBe(200);
    expect(await loginState(tokens.refresh_token)).toBe('ended');
  });

  it('a refresh token is revoked as the refresh token it is (RFC 7009 searches past a hint): a logout', async () => {
    const tokens = await childLogin();
    // It is not looked up as a handle: no handle is a refresh token, and its digest is no handle's.
    const [row] = await familyRows(tokens.refresh_token);
    expect(row!.exit_digest).not.toBe(digest(tokens.refresh_token));
    expect((await exit(tokens.refresh_token)).status).toBe(200);
    expect(await loginState(tokens.refresh_token)).toBe('ended');
    expect(await refreshRequest(server.url, tokens.refresh_token)).toMatchObject(REFUSED);
    expect(await apiStatus(tokens.access_token)).toBe(401);
  });

  it('another client’s access or refresh token is refused with unauthorized_client, as with any hint', async () => {
    const tokens = await childLogin();
    for (const token of [tokens.access_token, tokens.refresh_token]) {
      const res = await exit(token, { clientId: 'portal-staff' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'unauthorized_client' });
    }
    await expectLoginGoesOnThenEnds(tokens);
  });
});

describe('the quick exit racing a refresh of the same login', () => {
  it('leaves no token of the login live, and the refresh that won the race gets nothing usable', async () => {
    for (let round = 0; round < 20; round++) {
      const tokens = await childLogin();
      const handle = await exitHandleOf(tokens.refresh_token);
      // Sent in turn one first, then the other, so that either may reach the database first.
      const refreshing = () => refreshRequest(server.url, tokens.refresh_token);
      const [answer, exited] =
        round % 2 === 0
          ? await Promise.all([refreshing(), exit(handle)])
          : await Promise.all([exit(handle), refreshing()]).then(([e, a]) => [a, e] as const);
      expect(exited.status).toBe(200);
      const won = answer.status === 200 ? (answer.body as unknown as Tokens) : null;
      if (!won) expect(answer).toMatchObject(REFUSED);
      const unrevoked = (await familyRows(tokens.refresh_token))
        .filter((r) => r.revoked_date === null)
        .map((r) => r.token_digest);
      if (server.ctx.dbKind === 'sqlite') {
        // One connection: the refresh's transaction runs wholly before or after the revocation.
        expect(unrevoked).toEqual([]);
      } else {
        // PostgreSQL: a revocation does not see a successor whose transaction has not committed
        // yet. Only the winner's own successor may be left unstamped, and a revoked sibling makes
        // it refused all the same (TokenService.rotate).
        const winners = won ? [digest(won.refresh_token)] : [];
        expect(unrevoked.filter((d) => !winners.includes(d))).toEqual([]);
      }
      if (won) {
        expect(await refreshRequest(server.url, won.refresh_token)).toMatchObject(REFUSED);
        expect(await apiStatus(won.access_token)).toBe(401);
      }
      expect(await loginState(tokens.refresh_token)).toBe('ended');
    }
  });
});

/** The columns of refresh_tokens as the database has them. */
async function refreshTokenColumns(db: OpenDatabase['db']) {
  const tables = await db.introspection.getTables();
  return tables.find((t) => t.name === 'refresh_tokens')!.columns.map((c) => c.name);
}

/**
 * The database as the build before the exit handle leaves it: its migrations, its demo accounts,
 * and a refresh token of the child's stored with the columns that build wrote. Answers the token.
 */
async function storedByPreviousBuild(databaseUrl: string): Promise<string> {
  const before = openDatabase(databaseUrl);
  try {
    await migrateToLatest(before, '0011-push-subscriptions');
    expect(await refreshTokenColumns(before.db)).not.toContain('exit_digest');
    await seedDemoData(before.db);
    const subject = (await loadSubject(before.db, (await accountIdOf(before.db, 'demo'))!))!;
    const token = randomBytes(32).toString('base64url');
    const later = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
    await before.db
      .insertInto('refresh_tokens')
      .values({
        token_digest: digest(token),
        family_id: randomUUID(),
        account_id: subject.accountId,
        client_id: CLIENT_ID,
        scope: SCOPE,
        portal_id: 'portal',
        created_date: new Date().toISOString(),
        expires_at: later(14),
        family_expires_at: later(30),
        token_generation: subject.tokenGeneration,
        parent_id: null,
      })
      .execute();
    return token;
  } finally {
    await before.close();
  }
}

describe('a database migrated by the build before the exit handle', () => {
  it('gets the column; a token stored before has none, and its handle finds nothing (200)', async () => {
    const database = await createTestDatabase();
    let upgraded: TestServer | undefined;
    try {
      const oldToken = await storedByPreviousBuild(database.url);
      upgraded = await startTestServer({ databaseUrl: database.url });
      expect(await refreshTokenColumns(upgraded.ctx.db)).toContain('exit_digest');
      const db = upgraded.ctx.db;
      const row = () =>
        db
          .selectFrom('refresh_tokens')
          .select(['exit_digest', 'revoked_date'])
          .where('token_digest', '=', digest(oldToken))
          .executeTakeFirstOrThrow();
      expect(await row()).toEqual({ exit_digest: null, revoked_date: null });

      const res = await exit(await exitHandleOf(oldToken), { url: upgraded.url });
      expect(res.status).toBe(200);
      expect(await row()).toEqual({ exit_digest: null, revoked_date: null });

      // The login goes on, and the token its refresh stores has a handle that ends it.
      const next = await refreshRequest(upgraded.url, oldToken);
      expect(next.status).toBe(200);
      const successor = String(next.body.refresh_token);
      expect((await exit(await exitHandleOf(successor), { url: upgraded.url })).status).toBe(200);
      expect((await row()).revoked_date).not.toBeNull();
      expect(await refreshRequest(upgraded.url, successor)).toMatchObject(REFUSED);
    } finally {
      await upgraded?.dispose();
      await database.drop();
    }
  });
});
