import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import {
  api,
  CLIENT_ID,
  login,
  SCOPE,
  startTestServer,
  passwordRequest,
  refreshRequest,
  tokenRequest,
  type TestServer,
} from '../../../harness/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.dispose());

describe('discovery and keys', () => {
  it('publishes a discovery document whose endpoints exist', async () => {
    const doc = (await (await fetch(`${server.url}/.well-known/openid-configuration`)).json()) as Record<
      string,
      string
    >;
    expect(doc.issuer).toBe(server.url);
    expect(doc.token_endpoint).toBe(`${server.url}/connect/token`);
    expect(doc.revocation_endpoint).toBe(`${server.url}/connect/revocation`);
    const jwks = (await (await fetch(doc.jwks_uri!)).json()) as { keys: Array<Record<string, string>> };
    expect(jwks.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256' });
    expect(jwks.keys[0]).not.toHaveProperty('d');
  });

  it('signs access tokens with ES256 for at most 15 minutes, verifiable with the JWKS', async () => {
    const tokens = await login(server.url, 'demo', 'demo-losenord');
    const jwks = createRemoteJWKSet(new URL(`${server.url}/.well-known/openid-configuration/jwks`));
    const { payload, protectedHeader } = await jwtVerify(tokens.access_token, jwks, { issuer: server.url });
    expect(protectedHeader.alg).toBe('ES256');
    expect(payload.exp! - payload.iat!).toBeLessThanOrEqual(15 * 60);
    expect(tokens.expires_in).toBeLessThanOrEqual(15 * 60);
    expect(payload.role).toEqual(['child']);
    const idToken = decodeJwt(tokens.id_token!);
    expect(idToken.aud).toBe(CLIENT_ID);
    expect(idToken.sub).toBe(payload.sub);
    expect(tokens.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('gives no id_token without openid and no refresh token without offline_access', async () => {
    const res = await passwordRequest(server.url, {
      client_id: CLIENT_ID,
      scope: 'portal',
      username: 'demo',
      password: 'demo-losenord',
    });
    expect(res.status).toBe(200);
    expect(res.body.id_token).toBeUndefined();
    expect(res.body.refresh_token).toBeUndefined();
  });
});

describe('password grant', () => {
  it('answers wrong credentials with invalid_username_or_password', async () => {
    for (const [username, password] of [
      ['demo', 'fel-losenord'],
      ['finns-inte', 'demo-losenord'],
    ]) {
      const res = await passwordRequest(server.url, {
        client_id: CLIENT_ID,
        scope: SCOPE,
        username: username!,
        password: password!,
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'invalid_grant', error_description: 'invalid_username_or_password' });
    }
  });

  it('logs a participant in with the personal code as username and an empty or absent password', async () => {
    const empty = await login(server.url, 'DEMOKOD-0001', '');
    expect(decodeJwt(empty.access_token).role).toEqual(['participant']);
    const absent = await passwordRequest(server.url, {
      client_id: CLIENT_ID,
      scope: SCOPE,
      username: 'demokod-0002',
    });
    expect(absent.status).toBe(200);
  });

  it('refuses a personal code that does not exist and a child without a password', async () => {
    for (const username of ['DEMOKOD-9999', 'demo']) {
      const res = await passwordRequest(server.url, { client_id: CLIENT_ID, scope: SCOPE, username });
      expect(res.body.error_description, username).toBe('invalid_username_or_password');
    }
  });

  it('keeps staff out of the child app client and lets them into the staff client', async () => {
    await expect(login(server.url, 'kurator', 'kurator-losenord')).rejects.toThrow(
      /invalid_username_or_password/,
    );
    const staff = await login(server.url, 'kurator', 'kurator-losenord', 'portal-staff');
    expect(decodeJwt(staff.access_token).role).toEqual(['counsellor']);
  });

  it('refuses unknown clients, grant types and scopes with OAuth error bodies', async () => {
    const client = await passwordRequest(server.url, {
      client_id: 'other',
      username: 'demo',
      password: 'x',
    });
    expect(client).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    const grant = await tokenRequest(server.url, { grant_type: 'client_credentials', client_id: CLIENT_ID });
    expect(grant).toMatchObject({ status: 400, body: { error: 'unsupported_grant_type' } });
    const scope = await passwordRequest(server.url, {
      client_id: CLIENT_ID,
      scope: 'admin',
      username: 'demo',
      password: 'demo-losenord',
    });
    expect(scope).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
  });
});

describe('refresh tokens', () => {
  const refresh = (token: string) => refreshRequest(server.url, token);

  it('rotates the refresh token on every use', async () => {
    const first = await login(server.url, 'demo', 'demo-losenord');
    const second = await refresh(first.refresh_token);
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect(second.body.access_token).not.toBe(first.access_token);
    const third = await refresh(second.body.refresh_token as string);
    expect(third.status).toBe(200);
  });

  it('keeps the login second as auth_time in a refreshed id_token, however slowly the login was issued', async () => {
    // Every reading of the clock a second later than the one before: issuing the login's tokens
    // crosses whole seconds between its steps, as a slow signing on a busy server can.
    const real = Date.now.bind(Date);
    let ticks = 0;
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => real() + 1000 * ++ticks);
    try {
      const first = await login(server.url, 'demo', 'demo-losenord');
      const second = await refresh(first.refresh_token);
      expect(second.status).toBe(200);
      const authTime = (token: unknown) => decodeJwt(String(token)).auth_time;
      // OIDC clients (oidc-client-ts) refuse a refreshed id_token whose auth_time differs.
      expect(authTime(second.body.id_token)).toBe(authTime(first.id_token));
    } finally {
      clock.mockRestore();
    }
  });

  it('revokes the whole family when a token is used again after its successor was used', async () => {
    const first = await login(server.url, 'demo', 'demo-losenord');
    const second = await refresh(first.refresh_token);
    const third = await refresh(second.body.refresh_token as string);
    expect(third.status).toBe(200);
    // `first` was answered and its answer used: whoever presents it now holds a leaked copy.
    const reuse = await refresh(first.refresh_token);
    expect(reuse).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // The legitimate holder's newer token is gone too: the login has to be made again.
    const afterReuse = await refresh(third.body.refresh_token as string);
    expect(afterReuse).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('refuses a refresh token of another client', async () => {
    const tokens = await login(server.url, 'demo', 'demo-losenord');
    const res = await refreshRequest(server.url, tokens.refresh_token, 'portal-staff');
    expect(res.status).toBe(400);
  });
});

describe('revocation', () => {
  const revoke = (token: string, hint?: string) =>
    fetch(`${server.url}/connect/revocation`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, client_id: CLIENT_ID, ...(hint ? { token_type_hint: hint } : {}) }),
    });

  it('answers 200 for an access token, which then stops working at the API', async () => {
    const tokens = await login(server.url, 'demo', 'demo-losenord');
    expect((await api(server.url, '/portal/accounts', { token: tokens.access_token })).status).toBe(200);
    expect((await revoke(tokens.access_token, 'access_token')).status).toBe(200);
    expect((await api(server.url, '/portal/accounts', { token: tokens.access_token })).status).toBe(401);
  });

  it('tells the browser to drop its HTTP cache of the site, and nothing more', async () => {
    const tokens = await login(server.url, 'demo', 'demo-losenord');
    const res = await revoke(tokens.refresh_token, 'refresh_token');
    expect(res.status).toBe(200);
    // "cache" only: the app shell (Cache Storage) and the assistant's cookie stay (SPEC §4).
    expect(res.headers.get('clear-site-data')).toBe('"cache"');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('answers 200 for a refresh token, which then cannot be used', async () => {
    const tokens = await login(server.url, 'demo', 'demo-losenord');
    expect((await revoke(tokens.refresh_token, 'refresh_token')).status).toBe(200);
    const res = await refreshRequest(server.url, tokens.refresh_token);
    expect(res.status).toBe(400);
  });

  it('answers 200 for a token it does not know', async () => {
    expect((await revoke('not-a-token')).status).toBe(200);
  });
});
