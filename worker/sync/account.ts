import type { RuntimeConfig } from '../../contract/config.ts';
import { HUB_EVENTS } from '../../contract/hub.ts';
import {
  CONTACTS_FEATURE_IDS,
  type AccountResponse,
  type VerifyUsernameResponse,
} from '../../contract/profile.ts';
import type {
  AccountWriteResult,
  ChangePasswordResult,
  ContactMessageRow,
  NotificationRow,
  RegisterResult,
  RegistrationData,
  UsernameAvailability,
} from '../client/account.ts';
import type { LoadResult } from '../client/group-support.ts';
import { apiErrorOf, isHttpError } from '../http/http-error.ts';
import { keyedThrottle } from '../hub/throttle.ts';
import type { GroupDeps } from './group-deps.ts';
import { asLoadResult } from './load-result.ts';

/** SPEC §7 / §9: notifications of the last 30 days, at most 1000. */
export const NOTIFICATIONS_TAKE = 1000;
export const NOTIFICATIONS_DAYS = 30;
/** A burst of new notifications (several answers at once) refetches the list once a second. */
const NOTIFICATION_LIST_THROTTLE_MS = 1000;
const DAY_MS = 24 * 3600_000;

interface ValueList<T> {
  value: T[];
}

function writeResultOf(error: unknown): 'offline' | 'failed' {
  return isHttpError(error) && error.status === 0 ? 'offline' : 'failed';
}

/** Account calls and the notification and contact-message lists in Dexie. */
export class AccountSync {
  private readonly refetchList: (key: string) => void;

  constructor(readonly deps: GroupDeps) {
    this.refetchList = keyedThrottle(deps.clock, NOTIFICATION_LIST_THROTTLE_MS, () => {
      void this.loadNotifications();
    });
    // The core refreshes the count (the header dot); the list on my pages follows here.
    deps.on(HUB_EVENTS.notificationCreated, () => this.refetchList('list'));
  }

  /** The contacts feature of this variant; processmessage and deletemessage live under it. */
  private get contactsBase(): string {
    const config = this.deps.config as Partial<Pick<RuntimeConfig, 'contactsFeatureId'>>;
    return `/features/contacts/${config.contactsFeatureId ?? CONTACTS_FEATURE_IDS.main}`;
  }

  async verifyUsername(username: string): Promise<UsernameAvailability> {
    try {
      const { available } = await this.deps.http.post<VerifyUsernameResponse>(
        '/api/accounts/verifyusername',
        // SPEC §7 names a `token` beside the username (an anti-bot token elsewhere); none here.
        { username: username.trim().toLowerCase(), token: '' },
        { public: true, report: false },
      );
      return available ? 'available' : 'taken';
    } catch {
      return 'unknown';
    }
  }

  /** The public registration only; the API half logs in afterwards. */
  async register(data: RegistrationData): Promise<RegisterResult> {
    try {
      await this.deps.http.post(
        '/api/accounts/registercontact',
        {
          username: data.username.trim().toLowerCase(),
          password: data.password,
          properties: data.properties,
        },
        { public: true, report: false },
      );
      return { ok: true };
    } catch (error) {
      if (!isHttpError(error)) return { ok: false, error: 'failed' };
      if (error.status === 0) return { ok: false, error: 'offline' };
      if (error.status === 409) return { ok: false, error: 'username_taken' };
      if (error.status === 429) return { ok: false, error: 'too_many_attempts' };
      if (error.status === 400) {
        const code = apiErrorOf(error)?.error;
        // The two refusals a person can act on get their own answer; the form checked the rest.
        if (code === 'common_password' || code === 'name_not_allowed') return { ok: false, error: code };
        return { ok: false, error: 'invalid' };
      }
      this.deps.http.report(error);
      return { ok: false, error: 'failed' };
    }
  }

  /** The account's login name (GET {api}/accounts); the profile's name is the contact's and may differ. */
  async loginName(): Promise<{ username: string } | { error: 'offline' | 'failed' }> {
    try {
      const { username } = await this.deps.http.get<AccountResponse>('/accounts');
      // A participant's account has a personal code, not a username and a password.
      return username ? { username } : { error: 'failed' };
    } catch (error) {
      return { error: writeResultOf(error) };
    }
  }

  /**
   * POST changePassword; the server then ends every session of the account (see
   * PortalWorker.renewSession). `token` is the access token to send, read before the refresh lock.
   */
  async changePassword(oldPassword: string, password: string, token?: string): Promise<ChangePasswordResult> {
    try {
      await this.deps.http.post(
        '/api/accounts/changePassword',
        { oldPassword, password },
        { report: false, ...(token ? { token } : {}) },
      );
      return 'ok';
    } catch (error) {
      const code = apiErrorOf(error)?.error;
      // A wrong, short or common password is the user's typing, not a fault worth logging.
      if (code === 'wrong_password' || code === 'weak_password' || code === 'common_password') return code;
      // Too many tries of the current password: the server spaces them out.
      if (isHttpError(error) && error.status === 429) return 'too_many_attempts';
      if (isHttpError(error)) this.deps.http.report(error);
      return writeResultOf(error);
    }
  }

  async deleteAccount(): Promise<AccountWriteResult> {
    try {
      await this.deps.http.post('/deleteContact', {});
      return 'ok';
    } catch (error) {
      return writeResultOf(error);
    }
  }

  loadNotifications(): Promise<LoadResult> {
    return asLoadResult(async () => {
      const fromDate = new Date(this.deps.clock.now() - NOTIFICATIONS_DAYS * DAY_MS).toISOString();
      const { value } = await this.deps.http.get<ValueList<NotificationRow>>('/api/notifications', {
        params: { take: NOTIFICATIONS_TAKE, fromDate },
      });
      const { db } = this.deps;
      // One transaction: live queries never see the list empty in between.
      await db.transaction('rw', db.notifications, async () => {
        await db.notifications.clear();
        await db.notifications.bulkPut(value);
      });
    });
  }

  async processNotification(id: number): Promise<AccountWriteResult> {
    const row = await this.deps.db.notifications.get(id);
    return this.write(
      () =>
        this.deps.http.post('/api/notifications/process', {
          id,
          ...(row ? { entity: row.entity, notificationType: row.notificationType } : {}),
        }),
      () => this.deps.db.notifications.update(id, { isProcessed: true }),
    );
  }

  deleteNotification(id: number): Promise<AccountWriteResult> {
    return this.write(
      () => this.deps.http.post('/api/notifications/delete', { NotificationId: id }),
      () => this.deps.db.notifications.delete(id),
    );
  }

  loadContactMessages(): Promise<LoadResult> {
    return asLoadResult(async () => {
      const { value } = await this.deps.http.get<ValueList<ContactMessageRow>>('/contactmessages');
      const { db } = this.deps;
      await db.transaction('rw', db.contactMessages, async () => {
        await db.contactMessages.clear();
        await db.contactMessages.bulkPut(value.filter((m) => m.IsActive));
      });
    });
  }

  async processContactMessage(id: number): Promise<AccountWriteResult> {
    const row = await this.deps.db.contactMessages.get(id);
    return this.write(
      () => this.deps.http.post(`${this.contactsBase}/processmessage/`, row ?? { Id: id }),
      () => this.deps.db.contactMessages.update(id, { IsRead: true }),
    );
  }

  async deleteContactMessage(id: number): Promise<AccountWriteResult> {
    const row = await this.deps.db.contactMessages.get(id);
    return this.write(
      () => this.deps.http.post(`${this.contactsBase}/deletemessage/`, row ?? { Id: id }),
      () => this.deps.db.contactMessages.delete(id),
    );
  }

  /** The server first, then the cache: a failed write leaves the list as the server has it. */
  private async write(send: () => Promise<unknown>, apply: () => Promise<unknown>) {
    try {
      await send();
    } catch (error) {
      return writeResultOf(error);
    }
    await apply();
    return 'ok' as const;
  }
}
