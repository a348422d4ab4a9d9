import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpTransportType } from '@microsoft/signalr';
import { buildClient } from '../hub/helpers.ts';
import { HUB_PATH } from '../../../contract/hub.ts';
import {
  CLIENT_ID,
  api,
  createStaffAccount,
  createTestDatabase,
  login,
  passwordRequest,
  refreshRequest,
  type TestServer,
} from '../../../harness/test-server.ts';
import { registerChild, startTarget } from '../../../harness/attack.ts';

/**
 * Attack: a second device keeps a session after the account is gone. After deletion the other
 * device's access token still created a mail that reached the counsellors, and its hub WebSocket
 * kept receiving events. Deletion, a password change and a role change now end every token of the
 * account at once and close its hub connections - in every process, here two servers sharing one
 * database and a Redis backplane, the device's connection held by the server that did not do it.
 */
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let a: TestServer;
let b: TestServer;
beforeAll(async () => {
  database = await createTestDatabase();
  const options = {
    databaseUrl: database.url,
    config: { redisUrl: REDIS_URL },
  };
  a = await startTarget(options);
  b = await startTarget(options);
});
afterAll(async () => {
  await a?.dispose();
  await b?.dispose();
  await database?.drop();
});

/** A started hub connection at server B, and a promise of its close. */
async function connectedAtB(token: string, transport: HttpTransportType) {
  const connection = buildClient(`${b.url}${HUB_PATH}`, token, transport);
  const closed = new Promise<Error | undefined>((resolve) => connection.onclose(resolve));
  await connection.start();
  return { connection, closed };
}

/** The other device: a hub connection at server B, subscribed to its own contact's events. */
async function otherDevice(token: string) {
  const contactId = (
    (await api(b.url, '/portal/features/contacts/contactsapplicationfeature-id/detail', { token })).body as {
      info: { contact: { id: number } };
    }
  ).info.contact.id;
  const device = await connectedAtB(token, HttpTransportType.WebSockets);
  await device.connection.invoke('SubscribeToEntity', `Contact:${contactId}`);
  return device;
}

const mail = (url: string, token: string) =>
  api(url, '/portal/mail', { token, body: { subject: 'Hej', text: 'Skickat efter borttagningen' } });

describe('ending every session of an account', () => {
  it('on deletion: the other device can write nothing and its hub connection closes', async () => {
    const child = await registerChild(a);
    const second = await login(b.url, child.username, child.password);
    const device = await otherDevice(second.access_token);
    expect((await api(a.url, '/portal/deleteContact', { token: child.token, body: {} })).status).toBe(200);
    await device.closed;
    expect(device.connection.state).toBe('Disconnected');
    expect((await mail(b.url, second.access_token)).status).toBe(401);
    expect((await mail(a.url, second.access_token)).status).toBe(401);
    const queue = await api(a.url, '/portal/staff/queue', {
      token: (await login(a.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token,
    });
    expect(JSON.stringify(queue.body)).not.toContain('Skickat efter borttagningen');
    const refreshed = await refreshRequest(b.url, second.refresh_token);
    expect(refreshed.status).toBe(400);
    // A reconnect with the old token is refused too.
    await expect(otherDevice(second.access_token)).rejects.toThrow();
  });

  it('on a password change: every earlier token and connection ends, the new password works', async () => {
    const child = await registerChild(a);
    const second = await login(b.url, child.username, child.password);
    const device = await otherDevice(second.access_token);
    const changed = await api(a.url, '/portal/api/accounts/changePassword', {
      token: child.token,
      body: { oldPassword: child.password, password: 'Nytt-Blått-Lösen-42' },
    });
    expect(changed.status).toBe(200);
    await device.closed;
    expect((await mail(b.url, second.access_token)).status).toBe(401);
    expect((await mail(a.url, child.token)).status).toBe(401);
    const refreshed = await refreshRequest(a.url, child.refreshToken);
    expect(refreshed.status).toBe(400);
    const fresh = await login(a.url, child.username, 'Nytt-Blått-Lösen-42');
    expect((await mail(b.url, fresh.access_token)).status).toBe(200);
  });

  it('on a password change: a login with the old password at the same moment opens no session', async () => {
    const child = await registerChild(a);
    const attempts = Array.from({ length: 20 }, (_, i) =>
      new Promise<void>((resolve) => setTimeout(resolve, i * 5)).then(() =>
        passwordRequest(i % 2 ? b.url : a.url, {
          client_id: CLIENT_ID,
          scope: 'openid profile portal offline_access',
          username: child.username,
          password: child.password,
        }),
      ),
    );
    const changed = api(a.url, '/portal/api/accounts/changePassword', {
      token: child.token,
      body: { oldPassword: child.password, password: 'Ännu-Ett-Lösen-77' },
    });
    const [change, ...logins] = await Promise.all([changed, ...attempts]);
    expect(change.status).toBe(200);
    for (const login of logins.filter((l) => l.status === 200)) {
      const tokens = login.body as { access_token: string; refresh_token: string };
      expect((await mail(a.url, tokens.access_token)).status).toBe(401);
      const refreshed = await refreshRequest(b.url, tokens.refresh_token);
      expect(refreshed.status).toBe(400);
    }
  });

  it('on a role change: the staff member is signed out everywhere at once', async () => {
    const name = `kurator-${Date.now()}`;
    const id = await createStaffAccount(a, name, 'kollegans-losenord-9', ['counsellor']);
    const staffToken = (await login(b.url, name, 'kollegans-losenord-9', 'portal-staff')).access_token;
    expect((await api(b.url, '/portal/staff/queue', { token: staffToken })).status).toBe(200);
    const { closed } = await connectedAtB(staffToken, HttpTransportType.LongPolling);
    const admin = (await login(a.url, 'admin', 'admin-losenord', 'portal-staff')).access_token;
    const changed = await api(a.url, `/portal/staff/accounts/${id}/roles`, {
      token: admin,
      method: 'PUT',
      body: { roles: ['group_leader'] },
    });
    expect(changed.status).toBe(200);
    await closed;
    // No role at all is no staff account anyone could manage again: refused.
    expect(
      (
        await api(a.url, `/portal/staff/accounts/${id}/roles`, {
          token: admin,
          method: 'PUT',
          body: { roles: [] },
        })
      ).status,
    ).toBe(400);
    expect((await api(b.url, '/portal/staff/queue', { token: staffToken })).status).toBe(401);
    // Signed in again, the new role holds and the old one is gone.
    const again = (await login(a.url, name, 'kollegans-losenord-9', 'portal-staff')).access_token;
    expect((await api(a.url, '/portal/staff/queue', { token: again })).status).toBe(403);
    expect((await api(a.url, '/portal/staff/series', { token: again })).status).toBe(200);
  });
});
