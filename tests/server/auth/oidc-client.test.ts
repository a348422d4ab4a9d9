import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemoryWebStorage, UserManager, WebStorageStateStore } from 'oidc-client-ts';
import { api, startTestServer, type TestServer } from '../../../harness/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.dispose());

/** The worker's settings (ARCHITECTURE.md traps): portalId in the settings, an explicit user store. */
function userManager() {
  return new UserManager({
    authority: server.url,
    client_id: 'portal-web',
    redirect_uri: `${server.url}/`,
    scope: 'openid profile portal offline_access',
    extraTokenParams: { portalId: 'portal' },
    userStore: new WebStorageStateStore({ store: new InMemoryWebStorage() }),
    stateStore: new WebStorageStateStore({ store: new InMemoryWebStorage() }),
    automaticSilentRenew: false,
    monitorSession: false,
  });
}

describe('oidc-client-ts against the auth server', () => {
  it('logs in with the password grant, refreshes and revokes', async () => {
    const manager = userManager();
    const user = await manager.signinResourceOwnerCredentials({
      username: 'demo',
      password: 'demo-losenord',
    });
    expect(user.access_token).toBeTruthy();
    expect(user.refresh_token).toBeTruthy();
    expect(user.profile.sub).toBeTruthy();
    expect((await api(server.url, '/portal/accounts', { token: user.access_token })).status).toBe(200);

    const refreshed = await manager.signinSilent();
    expect(refreshed?.access_token).toBeTruthy();
    expect(refreshed?.access_token).not.toBe(user.access_token);
    expect(refreshed?.refresh_token).not.toBe(user.refresh_token);

    await manager.revokeTokens();
    expect((await api(server.url, '/portal/accounts', { token: refreshed!.access_token })).status).toBe(401);
    await expect(manager.signinSilent()).rejects.toThrow();
  });

  it('logs a participant in with a personal code and no password', async () => {
    const user = await userManager().signinResourceOwnerCredentials({
      username: 'DEMOKOD-0003',
      password: '',
    });
    expect(user.access_token).toBeTruthy();
  });

  it('surfaces invalid_username_or_password for wrong credentials', async () => {
    await expect(
      userManager().signinResourceOwnerCredentials({ username: 'demo', password: 'fel' }),
    ).rejects.toMatchObject({ error: 'invalid_grant', error_description: 'invalid_username_or_password' });
  });
});

describe('refresh later than the login second', () => {
  it('keeps auth_time of the login in a refreshed id_token, so oidc-client-ts accepts the refresh', async () => {
    const manager = userManager();
    const user = await manager.signinResourceOwnerCredentials({
      username: 'demo',
      password: 'demo-losenord',
    });
    const loginAuthTime = user.profile.auth_time;
    // A refresh in a later second than the login: the id_token is made anew then.
    await new Promise<void>((resolve) => {
      const wait = () =>
        Math.floor(Date.now() / 1000) > (loginAuthTime ?? 0) ? resolve() : setTimeout(wait, 50);
      wait();
    });
    const refreshed = await manager.signinSilent();
    expect(refreshed?.profile.auth_time).toBe(loginAuthTime);
  });
});
