import type { HubConnection } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, login, refreshRequest, type TestServer, type Tokens } from '../../../harness/test-server.ts';
import { connectedHub } from '../hub/helpers.ts';
import { registerChild, startTarget } from '../../../harness/attack.ts';

/**
 * Attack: a stolen login. Reuse detection and logout revoked the login's refresh tokens only; its
 * access tokens, a thief's copy among them, kept working on the API and the hub for up to 15
 * minutes. Now an access token names its login (`sid`) and is refused the moment the login is
 * revoked, and the hub closes the connections it opened. And a client revokes only its own tokens.
 */
let server: TestServer;
const hubs: HubConnection[] = [];
let childCount = 0;

beforeAll(async () => {
  server = await startTarget();
});
afterAll(async () => {
  await Promise.all(hubs.map((h) => h.stop()));
  await server?.dispose();
});

async function newLogin(): Promise<Tokens> {
  const child = await registerChild(server, `inlogg${++childCount}`);
  return login(server.url, child.username, child.password);
}

const apiStatus = async (token: string) => (await api(server.url, '/portal/accounts', { token })).status;

const connected = (token: string) => connectedHub(server.url, token, hubs);

const revoke = (form: Record<string, string>) =>
  fetch(`${server.url}/connect/revocation`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  }).then(async (res) => ({ status: res.status, body: await res.text() }));

async function refreshed(refreshToken: string): Promise<Tokens> {
  const res = await refreshRequest(server.url, refreshToken);
  expect(res.status).toBe(200);
  return res.body as unknown as Tokens;
}

describe('the access tokens of a revoked login', () => {
  it('are refused at once on the API and the hub when a refresh token is used twice', async () => {
    const first = await newLogin();
    // The rightful app refreshes twice; a thief holds a copy of the tokens in between.
    const second = await refreshed(first.refresh_token);
    const thief = await refreshed(second.refresh_token);
    expect(await apiStatus(thief.access_token)).toBe(200);
    const thiefHub = await connected(thief.access_token);

    // A token two swaps old comes back: reuse, and the whole login is revoked.
    expect((await refreshRequest(server.url, first.refresh_token)).status).toBe(400);
    for (const token of [first.access_token, second.access_token, thief.access_token]) {
      expect(await apiStatus(token)).toBe(401);
    }
    await expect(thiefHub.closed).resolves.toBeDefined();
    await expect(connected(thief.access_token)).rejects.toThrow();
  });

  it('are refused at once after logout revokes the refresh token, and its hub connection closes', async () => {
    const tokens = await newLogin();
    const hub = await connected(tokens.access_token);
    const res = await revoke({
      client_id: 'portal-web',
      token: tokens.refresh_token,
      token_type_hint: 'refresh_token',
    });
    expect(res.status).toBe(200);
    expect(await apiStatus(tokens.access_token)).toBe(401);
    await expect(hub.closed).resolves.toBeDefined();
  });

  it('leave the account’s other logins alone', async () => {
    const child = await registerChild(server, 'tvaenheter');
    const phone = await login(server.url, child.username, child.password);
    const tablet = await login(server.url, child.username, child.password);
    const sid = (token: string) =>
      (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid?: string }).sid;
    expect(sid(phone.access_token)).toMatch(/^[0-9a-f-]{36}$/);
    expect(sid(phone.access_token)).not.toBe(sid(tablet.access_token));
    const res = await revoke({ client_id: 'portal-web', token: phone.refresh_token });
    expect(res.status).toBe(200);
    expect(await apiStatus(phone.access_token)).toBe(401);
    expect(await apiStatus(tablet.access_token)).toBe(200);
  });
});

describe('revocation', () => {
  it('refuses a client that names none or another, and revokes nothing then', async () => {
    const tokens = await newLogin();
    expect((await revoke({ token: tokens.refresh_token })).status).toBe(401);
    expect((await revoke({ client_id: 'nobody', token: tokens.refresh_token })).status).toBe(401);
    for (const token of [tokens.refresh_token, tokens.access_token]) {
      const res = await revoke({ client_id: 'portal-staff', token });
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body)).toMatchObject({ error: 'unauthorized_client' });
    }
    expect(await apiStatus(tokens.access_token)).toBe(200);
    expect((await refreshRequest(server.url, tokens.refresh_token)).status).toBe(200);
  });

  it('answers 200 for a token it does not know, as RFC 7009 says', async () => {
    expect((await revoke({ client_id: 'portal-web', token: 'not-a-token' })).status).toBe(200);
  });
});
