import type { ContactMessageWire, NotificationWire } from '../../contract/notifications.ts';

/** What a registration sends (README "Decisions where the spec is silent"). */
export interface RegistrationData {
  /** 3-30 of a-z 0-9 . _ - (the server lowercases it). */
  username: string;
  /** At least 8 characters. */
  password: string;
  /** Property id (from the runtime config's propertyIds) to value: birth year, gender, consent date. */
  properties: Record<string, string>;
}

/** Usernames and passwords as the server accepts them (README "Decisions where the spec is silent"). */
export { MIN_PASSWORD_LENGTH, USERNAME_PATTERN } from '../../contract/limits.ts';

export type UsernameAvailability = 'available' | 'taken' | 'unknown';

export type RegisterResult =
  | { ok: true }
  | {
      ok: false;
      /**
       * `login_failed`: the account exists but the login afterwards did not work.
       * `common_password`: too common or easy to guess (the password field says so);
       * `name_not_allowed`: the username looks like a staff title (the username field says so).
       */
      error:
        | 'username_taken'
        | 'common_password'
        | 'name_not_allowed'
        | 'invalid'
        | 'too_many_attempts'
        | 'offline'
        | 'failed'
        | 'login_failed';
    };

/**
 * `common_password`: the new one is too common or easy to guess; `too_many_attempts`: too many
 * tries of the current password, wait a while; `signed_out`: the password was changed, but signing
 * in again with it failed, so this device is signed out (the server ends every session on a change).
 */
export type ChangePasswordResult =
  | 'ok'
  | 'wrong_password'
  | 'weak_password'
  | 'common_password'
  | 'too_many_attempts'
  | 'signed_out'
  | 'offline'
  | 'failed';

/** The outcome of a write the UI shows as a toast or an inline error. */
export type AccountWriteResult = 'ok' | 'offline' | 'failed';

/** Notifications and contact messages are kept in Dexie as the server sends them. */
export type NotificationRow = NotificationWire;
export type ContactMessageRow = ContactMessageWire;
