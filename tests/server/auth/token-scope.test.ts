import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestServer, tokenRequest, type TestServer } from '../../../harness/test-server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.dispose());

async function tokenWithScope(scope: string): Promise<string> {
  const res = await tokenRequest(server.url, {
    grant_type: 'password',
    client_id: 'portal-web',
    scope,
    username: 'demo',
    password: 'demo-losenord',
    portalId: 'portal',
  });
  expect(res.status).toBe(200);
  return String(res.body.access_token);
}

describe('the portal scope', () => {
  it('is what the API and the hub ask of an access token', async () => {
    const full = await tokenWithScope('openid profile portal offline_access');
    const identityOnly = await tokenWithScope('openid profile');
    expect((await api(server.url, '/portal/accounts', { token: full })).status).toBe(200);
    const refused = await api(server.url, '/portal/accounts', { token: identityOnly });
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body)).not.toContain('demo');

    const negotiate = (token: string) =>
      fetch(`${server.url}/hubs/portalaccountevents/negotiate?negotiateVersion=1`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}` },
      });
    expect((await negotiate(full)).status).toBe(200);
    expect((await negotiate(identityOnly)).status).toBe(401);
  });
});
