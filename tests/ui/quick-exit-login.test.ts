import './page-dom.ts';
import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { exitHandleOf } from '../../contract/quick-exit.ts';
import { peekSession } from '../../worker/client/session-peek.ts';
import {
  endLoginAsPageGoes,
  finishPendingExit,
  heldExitHandle,
  holdExitHandle,
  pendingExit,
} from '../../worker/client/quick-exit.ts';
import { login, refreshRequest, startTestServer, type TestServer } from '../../harness/test-server.ts';
import { setPageUrl } from './page-dom.ts';

// The quick exit's part at the server, as the page does it (worker/client/quick-exit.ts), against
// the real server: the login's revoke-only exit handle sent as the page goes, kept on the device
// until the server answered, and sent again by the next start, which first finishes the local part.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  setPageUrl(`${server.url}/`);
});
afterAll(async () => server?.dispose());
afterEach(async () => {
  localStorage.clear();
  // Each test's login is the demo child's only one: the server's state tells which one ended.
  await server.ctx.db.updateTable('refresh_tokens').set({ revoked_date: new Date().toISOString() }).execute();
  holdExitHandle(null, { keep: false });
});

const exit = () => ({
  url: `${server.url}/connect/revocation`,
  clientId: 'portal-web',
  variant: 'Barn' as const,
});

/** A child's login with its refresh token, and the handle the worker gives the tabs for it. */
async function childLogin() {
  const tokens = await login(server.url, 'demo', 'demo-losenord');
  return { refresh: tokens.refresh_token, handle: await exitHandleOf(tokens.refresh_token) };
}

const refused = async (refresh: string) => (await refreshRequest(server.url, refresh)).status === 400;

/** The server's refresh tokens of the demo child that no revocation has reached. */
const liveLogins = async () =>
  (
    await server.ctx.db
      .selectFrom('refresh_tokens')
      .innerJoin('accounts', 'accounts.id', 'refresh_tokens.account_id')
      .select('refresh_tokens.id')
      .where('accounts.username', '=', 'demo')
      .where('refresh_tokens.revoked_date', 'is', null)
      .execute()
  ).length;

describe('a quick exit ends the login at the server', () => {
  it('with the handle the tab holds, kept on the device only until the server has answered', async () => {
    const { refresh, handle } = await childLogin();
    holdExitHandle(handle, { keep: true });
    // A page loaded again finds it before its worker has answered.
    expect(heldExitHandle()).toBe(handle);

    endLoginAsPageGoes(exit(), true);
    expect(pendingExit()).toMatchObject({ handle, url: exit().url, clientId: 'portal-web' });
    expect(heldExitHandle()).toBeNull();
    await expect.poll(() => pendingExit(), { timeout: 10_000 }).toBeNull();
    expect(await refused(refresh)).toBe(true);
    // The handle itself is no login.
    expect((await refreshRequest(server.url, handle)).status).toBe(400);
  });

  it('keeps nothing on the device in shared-device mode, and still ends the login', async () => {
    const { refresh, handle } = await childLogin();
    holdExitHandle(handle, { keep: false });
    expect(localStorage.length).toBe(0);
    endLoginAsPageGoes(exit(), false);
    expect(localStorage.length).toBe(0);
    await expect.poll(() => refused(refresh), { timeout: 10_000 }).toBe(true);
  });

  it('offline: the next start finishes the local part once, before anything is shown, and sends it when back online', async () => {
    const { refresh, handle } = await childLogin();
    holdExitHandle(handle, { keep: true });
    // The phone's network is down as the child leaves (the network is not this project's part).
    const network = globalThis.fetch;
    globalThis.fetch = () => Promise.reject(new TypeError('Failed to fetch'));
    try {
      endLoginAsPageGoes(exit(), true);
      // What the session left on the device, as the exit was cut short.
      const data = new Dexie('portal-data');
      data.version(1).stores({ session: 'id' });
      await data.table('session').put({ id: 'current', status: 'authenticated', changedAt: 1 });
      data.close();
      // Nothing of the session is drawn, not even the hint of the session row.
      expect(await peekSession()).toEqual({ status: 'anonymous' });

      await finishPendingExit();
      expect(await Dexie.exists('portal-data')).toBe(false);
      expect(pendingExit()).toMatchObject({ handle, finished: true });
      // A second start does not wipe again (a new sign-in before the server answered stays).
      await finishPendingExit();
    } finally {
      globalThis.fetch = network;
    }
    expect(await liveLogins()).toBeGreaterThan(0);
    // Back online: sent, answered, forgotten.
    dispatchEvent(new Event('online'));
    await expect.poll(() => pendingExit(), { timeout: 10_000 }).toBeNull();
    expect(await liveLogins()).toBe(0);
    expect(await refused(refresh)).toBe(true);
  });
});
