import type { AccountApi, AccountWriteResult } from '../client/account.ts';
import type { PortalWorker } from '../portal-worker.ts';

/** The AccountApi half of the Comlink API object. */
export function accountApi(ready: Promise<PortalWorker>): AccountApi {
  const a = async () => (await ready).account;
  /** SPEC §7: after each notification or contact-message write the header count is refreshed. */
  const thenRefreshCount = async (result: AccountWriteResult) => {
    if (result === 'ok') await (await ready).refreshNotifications();
    return result;
  };

  return {
    verifyUsername: async (username) => (await a()).verifyUsername(username),
    register: async (data) => {
      const worker = await ready;
      const registered = await worker.account.register(data);
      if (!registered.ok) return registered;
      const login = await worker.login(data.username.trim().toLowerCase(), data.password);
      return login.ok ? login : { ok: false, error: 'login_failed' };
    },
    changePassword: async (oldPassword, password) => {
      const worker = await ready;
      // The server ends every session of the account on a change, this one too: the worker signs
      // in again with the login name (not the profile's name, which may differ) and the new password.
      const account = await worker.account.loginName();
      if ('error' in account) return account.error;
      return worker.renewSession(account.username, password, (token) =>
        worker.account.changePassword(oldPassword, password, token),
      );
    },
    deleteAccount: async () => {
      const worker = await ready;
      // The server closes this login's hub connection; without stopping it first, the reconnect's
      // 401 would end the session as "expired" instead of the user's own choice.
      const runner = worker.isRunner;
      if (runner) await worker.hub.stop();
      const result = await worker.account.deleteAccount();
      if (result === 'ok') await worker.logout('user');
      else if (runner) await worker.hub.start();
      return result;
    },
    loadNotifications: async () => (await a()).loadNotifications(),
    processNotification: async (id) => thenRefreshCount(await (await a()).processNotification(id)),
    deleteNotification: async (id) => thenRefreshCount(await (await a()).deleteNotification(id)),
    loadContactMessages: async () => (await a()).loadContactMessages(),
    processContactMessage: async (id) => thenRefreshCount(await (await a()).processContactMessage(id)),
    deleteContactMessage: async (id) => thenRefreshCount(await (await a()).deleteContactMessage(id)),
  };
}
