import type { RuntimeConfig } from '../../contract/config.ts';
import { HUB_EVENTS } from '../../contract/hub.ts';
import {
  CONTACTS_FEATURE_IDS,
  type AccountResponse,
  type ContactDetailResponse,
  type ContactUpdateRequest,
  type RegisterContactResponse,
  type VerifyUsernameResponse,
} from '../../contract/profile.ts';
import type {
  ChangePasswordResult,
  ContactMessageRow,
  NotificationRow,
  DisplayNameError,
  ProfileDetails,
  RegisterError,
  RegisterResult,
  RegistrationData,
  UsernameAvailability,
} from '../base/account.ts';
import type { LoadResult } from '../base/group-support.ts';
import { isHttpError, refusalOf } from '../http/http-error.ts';
import { keyedThrottle } from '../hub/throttle.ts';
import type { SyncContext } from './sync-context.ts';
import { asLoadResult, writeErrorOf } from './load-result.ts';
import { failure, ok, type Result, type WriteResult } from '../base/result.ts';
import { everyVariant, type HubHandlers, type SyncModule } from './sync-module.ts';
import { NOTIFICATIONS_DAYS, NOTIFICATIONS_TAKE } from '../../contract/limits.ts';

/** A burst of new notifications (several answers at once) refetches the list once a second. */
const NOTIFICATION_LIST_THROTTLE_MS = 1000;
const DAY_MS = 24 * 3600_000;

interface ValueList<T> {
  value: T[];
}

/**
 * The account (SPEC §7 Profile and account, Contact messages and notifications): registration,
 * change password, delete account, and the notification and contact-message lists in Dexie.
 */
export class AccountSync implements SyncModule {
  readonly commands = {
    /** Public call: is the username free? `unknown` when the server could not be asked. */
    verifyUsername: (username: string) => this.verifyUsername(username),
    /** Public registration, then the usual password login with the same credentials. */
    register: (data: RegistrationData) => this.register(data),
    /**
     * Changes the password. The server then ends every session of the account, this device's too,
     * so the worker signs in again with the new password: the user stays signed in here.
     */
    changePassword: (oldPassword: string, password: string) => this.changePassword(oldPassword, password),
    /** Deletes the contact (name, properties, login) and signs out on success. */
    deleteAccount: () => this.deleteAccount(),
    /** Saves the birth year and gender the child gave (SPEC §7 contacts update); the profile follows. */
    updateProfile: (details: ProfileDetails) => this.updateProfile(details),
    /**
     * Chooses the name others see (Peers' author name): never the username, which the server
     * refuses as `name_not_allowed`, as it does a staff title.
     */
    setDisplayName: (name: string) => this.setDisplayName(name),
    /** Replaces `notifications` with the last 30 days (take 1000). */
    loadNotifications: () => this.loadNotifications(),
    /** Marks a notification processed (read), then refreshes the header count. */
    processNotification: (id: number) => this.processNotification(id),
    deleteNotification: (id: number) => this.deleteNotification(id),
    /** Replaces `contactMessages` with the active messages. */
    loadContactMessages: () => this.loadContactMessages(),
    /** processmessage (mark read), then the header count is refreshed. */
    processContactMessage: (id: number) => this.processContactMessage(id),
    /** deletemessage, then the header count is refreshed. */
    deleteContactMessage: (id: number) => this.deleteContactMessage(id),
  };

  readonly tables: SyncModule['tables'];
  readonly runsIn = everyVariant;
  readonly hears: HubHandlers;
  private readonly refetchList: (key: string) => void;

  constructor(private readonly ctx: SyncContext) {
    this.tables = [ctx.db.notifications, ctx.db.contactMessages];
    this.refetchList = keyedThrottle(ctx.clock, NOTIFICATION_LIST_THROTTLE_MS, () => {
      void this.loadNotifications();
    });
    // The core refreshes the count (the header dot); the list on my pages follows here.
    this.hears = { [HUB_EVENTS.notificationCreated]: () => this.refetchList('list') };
  }

  /** The contacts feature of this variant; processmessage and deletemessage live under it. */
  private get contactsBase(): string {
    const config = this.ctx.config as Partial<Pick<RuntimeConfig, 'contactsFeatureId'>>;
    return `/features/contacts/${config.contactsFeatureId ?? CONTACTS_FEATURE_IDS.main}`;
  }

  async verifyUsername(username: string): Promise<Result<UsernameAvailability>> {
    try {
      const { available } = await this.ctx.http.post<VerifyUsernameResponse>(
        '/api/accounts/verifyusername',
        // SPEC §7 names a `token` beside the username (an anti-bot token elsewhere); none here.
        { username: username.trim().toLowerCase(), token: '' },
        { public: true, report: false },
      );
      return ok(available ? 'available' : 'taken');
    } catch {
      return ok('unknown');
    }
  }

  /**
   * The public registration, then the usual password login. A username refused as taken may be this
   * child's own account: the first registration's answer was lost on the way (the form said there
   * was no network, and the child sent it again), or the browser sent the request again itself
   * after a connection reset. So a taken name is tried with the password given before it is called
   * taken: that signs in only someone who holds the password, as the login form would, and costs a
   * taken name one counted login attempt (spaced out, never locked; docs/security.md "Login limits").
   */
  async register(data: RegistrationData): Promise<RegisterResult> {
    const registered = await this.registerContact(data);
    if (!registered.ok && registered.code !== 'username_taken') return registered;
    const username = data.username.trim().toLowerCase();
    // The new account's device token: the first login is spared a brake on this address (a school's).
    // Kept or not (storage refused), the login goes on: without it, it is judged by its address.
    if (registered.ok && registered.value) {
      await this.ctx.session
        .keepDeviceToken(username, data.password, registered.value)
        .catch(() => undefined);
    }
    const login = await this.ctx.session.login(username, data.password);
    if (login.ok) return login;
    if (registered.ok) return failure('login_failed');
    // Someone else's name (another password), or the login got no answer or had to wait.
    if (login.code === 'offline' || login.code === 'too_many_attempts') return failure(login.code);
    return registered;
  }

  /** The public registration; answers the new account's device token (null from a server without). */
  private async registerContact(data: RegistrationData): Promise<Result<string | null, RegisterError>> {
    try {
      const answer = await this.ctx.http.post<Partial<RegisterContactResponse>>(
        '/api/accounts/registercontact',
        {
          username: data.username.trim().toLowerCase(),
          password: data.password,
          properties: data.properties,
        },
        { public: true, report: false },
      );
      return ok(typeof answer?.deviceToken === 'string' ? answer.deviceToken : null);
    } catch (error) {
      if (!isHttpError(error)) return failure('failed');
      if (error.status === 0) return failure('offline');
      if (error.status === 409) return failure('username_taken');
      if (error.status === 429) return failure('too_many_attempts');
      if (error.status === 400) {
        const code = refusalOf(error)?.code;
        // The two refusals a person can act on get their own answer; the form checked the rest.
        if (code === 'common_password' || code === 'name_not_allowed') return failure(code);
        return failure('invalid');
      }
      this.ctx.http.report(error);
      return failure('failed');
    }
  }

  /**
   * The account's login name: the profile's `loginName` (read with it at sign-in), else GET
   * {api}/accounts. The profile's own name is the contact's and may differ.
   */
  private async loginName(): Promise<{ username: string } | { error: 'offline' | 'failed' }> {
    const stored = (await this.ctx.db.profile.get('current'))?.loginName;
    if (stored) return { username: stored };
    try {
      const { username } = await this.ctx.http.get<AccountResponse>('/accounts');
      // A participant's account has a personal code, not a username and a password.
      return username ? { username } : { error: 'failed' };
    } catch (error) {
      return { error: writeErrorOf(error) };
    }
  }

  /**
   * The server ends every session of the account on a change, this one too: the session is renewed
   * with the login name (not the profile's name, which may differ) and the new password.
   */
  async changePassword(oldPassword: string, password: string): Promise<ChangePasswordResult> {
    const account = await this.loginName();
    if ('error' in account) return failure(account.error);
    return this.ctx.session.renew(account.username, password, (token) =>
      this.postChangePassword(oldPassword, password, token),
    );
  }

  /** POST changePassword with `token`, the access token read before the refresh lock. */
  private async postChangePassword(
    oldPassword: string,
    password: string,
    token: string,
  ): Promise<ChangePasswordResult> {
    try {
      await this.ctx.http.post(
        '/api/accounts/changePassword',
        { oldPassword, password },
        { report: false, token },
      );
      return ok(undefined);
    } catch (error) {
      const code = refusalOf(error)?.code;
      // A wrong, short or common password is the user's typing, not a fault worth logging.
      if (code === 'wrong_password' || code === 'weak_password' || code === 'common_password')
        return failure(code);
      // Too many tries of the current password: the server spaces them out.
      if (isHttpError(error) && error.status === 429) return failure('too_many_attempts');
      if (isHttpError(error)) this.ctx.http.report(error);
      return failure(writeErrorOf(error));
    }
  }

  /**
   * The server closes this login's hub connection; without stopping it first, the reconnect's 401
   * would end the session as "expired" instead of the user's own choice.
   */
  async updateProfile(details: ProfileDetails): Promise<WriteResult> {
    const { propertyIds, contactsFeatureId } = this.ctx.config;
    const body: ContactUpdateRequest = {
      properties: { [propertyIds.birthYear]: details.birthYear, [propertyIds.gender]: details.gender },
    };
    try {
      const { info } = await this.ctx.http.post<ContactDetailResponse>(
        `/features/contacts/${contactsFeatureId}/update`,
        body,
      );
      const current = await this.ctx.db.profile.get('current');
      if (current) await this.ctx.db.profile.put({ ...current, properties: info.contact.properties ?? {} });
      return ok(undefined);
    } catch (error) {
      return failure(writeErrorOf(error));
    }
  }

  async setDisplayName(name: string): Promise<Result<void, DisplayNameError>> {
    const body: ContactUpdateRequest = { name: name.trim() };
    try {
      const { info } = await this.ctx.http.post<ContactDetailResponse>(
        `/features/contacts/${this.ctx.config.contactsFeatureId}/update`,
        body,
      );
      const current = await this.ctx.db.profile.get('current');
      if (current) await this.ctx.db.profile.put({ ...current, username: info.contact.name });
      return ok(undefined);
    } catch (error) {
      const code = isHttpError(error) ? refusalOf(error)?.code : undefined;
      if (code === 'name_not_allowed') return failure(code);
      if (code === 'validation') return failure('invalid');
      return failure(writeErrorOf(error));
    }
  }

  async deleteAccount(): Promise<WriteResult> {
    return this.ctx.session.withoutHub(
      async () => {
        try {
          await this.ctx.http.post('/deleteContact', {});
        } catch (error) {
          return failure(writeErrorOf(error));
        }
        await this.ctx.session.logout('user');
        return ok(undefined);
      },
      (result) => result.ok,
    );
  }

  loadNotifications(): Promise<LoadResult> {
    return asLoadResult(async () => {
      const fromDate = new Date(this.ctx.clock.now() - NOTIFICATIONS_DAYS * DAY_MS).toISOString();
      const { value } = await this.ctx.http.get<ValueList<NotificationRow>>('/api/notifications', {
        params: { take: NOTIFICATIONS_TAKE, fromDate },
      });
      const { db } = this.ctx;
      // One transaction: live queries never see the list empty in between.
      await db.transaction('rw', db.notifications, async () => {
        await db.notifications.clear();
        await db.notifications.bulkPut(value);
      });
    });
  }

  async processNotification(id: number): Promise<WriteResult> {
    const row = await this.ctx.db.notifications.get(id);
    return this.write(
      () =>
        this.ctx.http.post('/api/notifications/process', {
          id,
          ...(row ? { entity: row.entity, notificationType: row.notificationType } : {}),
        }),
      () => this.ctx.db.notifications.update(id, { isProcessed: true }),
    );
  }

  deleteNotification(id: number): Promise<WriteResult> {
    return this.write(
      () => this.ctx.http.post('/api/notifications/delete', { NotificationId: id }),
      () => this.ctx.db.notifications.delete(id),
    );
  }

  loadContactMessages(): Promise<LoadResult> {
    return asLoadResult(async () => {
      const { value } = await this.ctx.http.get<ValueList<ContactMessageRow>>('/contactmessages');
      const { db } = this.ctx;
      await db.transaction('rw', db.contactMessages, async () => {
        await db.contactMessages.clear();
        await db.contactMessages.bulkPut(value.filter((m) => m.IsActive));
      });
    });
  }

  async processContactMessage(id: number): Promise<WriteResult> {
    const row = await this.ctx.db.contactMessages.get(id);
    return this.write(
      () => this.ctx.http.post(`${this.contactsBase}/processmessage/`, row ?? { Id: id }),
      () => this.ctx.db.contactMessages.update(id, { IsRead: true }),
    );
  }

  async deleteContactMessage(id: number): Promise<WriteResult> {
    const row = await this.ctx.db.contactMessages.get(id);
    return this.write(
      () => this.ctx.http.post(`${this.contactsBase}/deletemessage/`, row ?? { Id: id }),
      () => this.ctx.db.contactMessages.delete(id),
    );
  }

  /**
   * The server first, then the cache: a failed write leaves the list as the server has it. SPEC §7:
   * after each notification or contact-message write the header count is refreshed.
   */
  private async write(send: () => Promise<unknown>, apply: () => Promise<unknown>) {
    try {
      await send();
    } catch (error) {
      return failure(writeErrorOf(error));
    }
    await apply();
    await this.ctx.refreshNotificationCount();
    return ok(undefined);
  }
}
