import { InMemoryWebStorage } from 'oidc-client-ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StaffApiError } from '../../staff-console/api/staff-api.ts';
import { StaffAuth } from '../../staff-console/session/staff-auth.ts';
import { api, createStaffAccount, startTestServer, type TestServer } from '../../harness/test-server.ts';

/**
 * The console's session against the real auth server: oidc-client-ts with the console's settings,
 * tokens in a Storage (sessionStorage in the browser), and a clock the test moves so that the access
 * token is about to expire without waiting for it.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.dispose());

const QUARTER_HOUR_MS = 15 * 60_000;

async function signedIn(username: string) {
  const password = `${username}-losenord-1`;
  const accountId = await createStaffAccount(server, username, password, ['counsellor'], `Kim ${username}`);
  let now = Date.now();
  let expired = 0;
  const store = new InMemoryWebStorage();
  const auth = new StaffAuth({
    authUrl: server.url,
    portalId: 'portal',
    store,
    redirectUri: `${server.url}/personal`,
    onExpired: () => expired++,
    now: () => now,
  });
  await auth.signIn(username, password);
  return {
    auth,
    accountId,
    store,
    expiredCount: () => expired,
    /** Moves the session's clock to where the access token is about to expire. */
    nearExpiry: () => {
      now += QUARTER_HOUR_MS;
    },
    /** Back to the real time, which a token just issued counts its lifetime from. */
    clockNow: () => {
      now = Date.now();
    },
    /** The refresh token as the console stores it. */
    storedRefreshToken: () => {
      const key = store.key(0)!;
      return (JSON.parse(store.getItem(key)!) as { refresh_token: string }).refresh_token;
    },
  };
}

/** The login's refresh tokens on the server: how many were issued, used and revoked. */
async function refreshTokens(accountId: number) {
  const rows = await server.ctx.db
    .selectFrom('refresh_tokens')
    .select(['used_date', 'revoked_date'])
    .where('account_id', '=', accountId)
    .execute();
  return {
    issued: rows.length,
    used: rows.filter((r) => r.used_date !== null).length,
    revoked: rows.filter((r) => r.revoked_date !== null).length,
  };
}

const queueStatus = async (token: string) => (await api(server.url, '/portal/staff/queue', { token })).status;

describe('the staff console session', () => {
  it('knows who signed in: the account id of the token, the name and the roles', async () => {
    const { auth, accountId } = await signedIn('kim-a');
    expect(await auth.account()).toEqual({ accountId, name: 'Kim kim-a', roles: ['counsellor'] });
  });

  it('refreshes once when several calls find the token about to expire at the same time', async () => {
    const session = await signedIn('kim-b');
    const first = await session.auth.accessToken();
    expect(await session.auth.accessToken()).toBe(first);
    expect(await refreshTokens(session.accountId)).toEqual({ issued: 1, used: 0, revoked: 0 });

    session.nearExpiry();
    const tokens = await Promise.all([1, 2, 3, 4].map(() => session.auth.accessToken()));
    expect(new Set(tokens).size).toBe(1);
    expect(tokens[0]).not.toBe(first);
    // One refresh-token grant: the first token used once, one new one, and the login intact.
    expect(await refreshTokens(session.accountId)).toEqual({ issued: 2, used: 1, revoked: 0 });
    expect(await queueStatus(tokens[0]!)).toBe(200);

    // A call the server refused with the old token gets the new one, without another grant.
    session.clockNow();
    expect(await session.auth.accessToken(first)).toBe(tokens[0]);
    expect(await refreshTokens(session.accountId)).toEqual({ issued: 2, used: 1, revoked: 0 });
    expect(session.expiredCount()).toBe(0);
  });

  it('signs out when the server refuses the refresh', async () => {
    const session = await signedIn('kim-c');
    // The login is ended elsewhere: its refresh token is revoked.
    const revoked = await fetch(`${server.url}/connect/revocation`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        token: session.storedRefreshToken(),
        token_type_hint: 'refresh_token',
        client_id: 'portal-staff',
      }),
    });
    expect(revoked.status).toBe(200);

    session.nearExpiry();
    const calls = await Promise.allSettled([session.auth.accessToken(), session.auth.accessToken()]);
    for (const call of calls) {
      expect(call.status).toBe('rejected');
      const reason = (call as PromiseRejectedResult).reason as unknown;
      expect(reason).toBeInstanceOf(StaffApiError);
      expect((reason as StaffApiError).status).toBe(401);
    }
    expect(session.expiredCount()).toBe(1);
    expect(await session.auth.account()).toBeNull();
    expect(session.store.length).toBe(0);
  });

  it('revokes the refresh and the access token when signing out', async () => {
    const session = await signedIn('kim-d');
    const token = await session.auth.accessToken();
    await session.auth.signOut();
    expect(await session.auth.account()).toBeNull();
    expect(await queueStatus(token)).toBe(401);
    expect((await refreshTokens(session.accountId)).revoked).toBe(1);
  });
});
