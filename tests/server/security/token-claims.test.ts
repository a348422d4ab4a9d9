import { SignJWT } from 'jose';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SCOPE,
  api,
  claimsOf,
  login,
  signAccessToken,
  passwordRequest,
  type TestServer,
} from '../../../harness/test-server.ts';
import { startTarget } from '../../../harness/attack.ts';

/**
 * Attack: tokens the server should not take. The API checked signature, expiry and audience, not
 * the issuer or the client a token was made for. Now a token must name this site as issuer, a
 * known client, and only roles that client serves; the child's API takes the child app's tokens
 * only and the staff API the console's.
 */
let server: TestServer;
let demo: { accountId: number; contactId: number };
beforeAll(async () => {
  server = await startTarget();
  demo = claimsOf((await login(server.url, 'demo', 'demo-losenord')).access_token);
});
afterAll(async () => server?.dispose());

/** A token signed with the server's own key, with claims of the test's choosing. */
async function forged(claims: Record<string, unknown>, issuer = server.url) {
  const key = server.ctx.keys.current.signing;
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    client_id: 'portal-web',
    scope: SCOPE,
    role: ['child'],
    contact_id: demo.contactId,
    gen: 0,
    ...claims,
  })
    .setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'at+jwt' })
    .setIssuer(issuer)
    .setAudience(String(claims.aud ?? 'portal'))
    .setSubject(String(demo.accountId))
    .setJti(randomUUID())
    .setIssuedAt(now)
    .setExpirationTime(now + 600)
    .sign(key.privateKey);
}

const accounts = (token: string) => api(server.url, '/portal/accounts', { token });
const negotiate = (token: string) =>
  fetch(`${server.url}/hubs/portalaccountevents/negotiate?negotiateVersion=1`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
  });

describe('access tokens', () => {
  it('work as issued, so the refusals below are about the one claim changed', async () => {
    const token = await forged({});
    expect((await accounts(token)).status).toBe(200);
    expect((await negotiate(token)).status).toBe(200);
  });

  it('that say they live longer than the server issues them for, or from the future, are refused', async () => {
    const key = server.ctx.keys.current.signing;
    const now = Math.floor(Date.now() / 1000);
    const withTimes = (iat: number | null, exp: number) => {
      const jwt = new SignJWT({
        client_id: 'portal-web',
        scope: SCOPE,
        role: ['child'],
        contact_id: demo.contactId,
        gen: 0,
      })
        .setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'at+jwt' })
        .setIssuer(server.url)
        .setAudience('portal')
        .setSubject(String(demo.accountId))
        .setJti(randomUUID())
        .setExpirationTime(exp);
      return (iat === null ? jwt : jwt.setIssuedAt(iat)).sign(key.privateKey);
    };
    // A year, a day, and the issued fifteen minutes and one second.
    for (const lifetime of [365 * 24 * 3600, 24 * 3600, 15 * 60 + 1]) {
      const token = await withTimes(now, now + lifetime);
      expect((await accounts(token)).status).toBe(401);
      expect((await negotiate(token)).status).toBe(401);
    }
    expect((await accounts(await withTimes(null, now + 600))).status).toBe(401);
    expect((await accounts(await withTimes(now + 3600, now + 3600 + 600))).status).toBe(401);
    // Exactly the issued lifetime is good.
    expect((await accounts(await withTimes(now, now + 15 * 60))).status).toBe(200);
  });

  it('of another issuer are refused by the API and the hub', async () => {
    const token = await forged({}, 'https://evil.example');
    expect((await accounts(token)).status).toBe(401);
    expect((await negotiate(token)).status).toBe(401);
  });

  it('for another audience or an unknown client are refused', async () => {
    expect((await accounts(await forged({ aud: 'other-api' }))).status).toBe(401);
    expect((await accounts(await forged({ client_id: 'some-other-app' }))).status).toBe(401);
    expect((await accounts(await forged({ client_id: 'toString' }))).status).toBe(401);
  });

  it('claiming a role their client does not serve are refused', async () => {
    expect((await accounts(await forged({ role: ['counsellor'] }))).status).toBe(401);
    expect((await accounts(await forged({ client_id: 'portal-staff', role: ['child'] }))).status).toBe(401);
  });

  it('of an earlier generation (before a password change) are refused', async () => {
    expect((await accounts(await forged({ gen: 7 }))).status).toBe(401);
  });

  it('of the wrong client are refused by the other API', async () => {
    const child = (await login(server.url, 'demo', 'demo-losenord')).access_token;
    const staff = (await login(server.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token;
    expect((await api(server.url, '/portal/staff/queue', { token: child })).status).toBe(403);
    expect((await api(server.url, '/portal/accounts', { token: staff })).status).toBe(403);
    // Signed as a staff token but for a child's account: the staff API wants the staff role too.
    const childAsStaff = await signAccessToken(server, { ...demo, roles: [], clientId: 'portal-staff' }, 600);
    expect((await api(server.url, '/portal/staff/queue', { token: childAsStaff })).status).toBe(403);
  });

  it('are issued only to known clients', async () => {
    const res = await passwordRequest(server.url, {
      client_id: 'toString',
      username: 'demo',
      password: 'demo-losenord',
    });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_client');
  });
});
