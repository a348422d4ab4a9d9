import type { ContactMessageWire, NotificationWire } from '../../contract/notifications.ts';
import type { LoadResult } from './group-support.ts';

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
export const USERNAME_PATTERN = /^[a-z0-9._-]{3,30}$/;
export const MIN_PASSWORD_LENGTH = 8;

export type UsernameAvailability = 'available' | 'taken' | 'unknown';

export type RegisterResult =
  | { ok: true }
  | {
      ok: false;
      /** `login_failed`: the account exists but the login afterwards did not work. */
      error: 'username_taken' | 'invalid' | 'too_many_attempts' | 'offline' | 'failed' | 'login_failed';
    };

export type ChangePasswordResult = 'ok' | 'wrong_password' | 'weak_password' | 'offline' | 'failed';

/** The outcome of a write the UI shows as a toast or an inline error. */
export type AccountWriteResult = 'ok' | 'offline' | 'failed';

/**
 * The account (SPEC §7 Profile and account, Contact messages and notifications): registration,
 * change password, delete account, notifications and contact messages.
 */
export interface AccountApi {
  /** Public call: is the username free? `unknown` when the server could not be asked. */
  verifyUsername(username: string): Promise<UsernameAvailability>;
  /** Public registration, then the usual password login with the same credentials. */
  register(data: RegistrationData): Promise<RegisterResult>;
  changePassword(oldPassword: string, password: string): Promise<ChangePasswordResult>;
  /** Deletes the contact (name, properties, login) and signs out on success. */
  deleteAccount(): Promise<AccountWriteResult>;
  /** Replaces `notifications` with the last 30 days (take 1000). */
  loadNotifications(): Promise<LoadResult>;
  /** Marks a notification processed (read), then refreshes the header count. */
  processNotification(id: number): Promise<AccountWriteResult>;
  deleteNotification(id: number): Promise<AccountWriteResult>;
  /** Replaces `contactMessages` with the active messages. */
  loadContactMessages(): Promise<LoadResult>;
  /** processmessage (mark read), then the header count is refreshed. */
  processContactMessage(id: number): Promise<AccountWriteResult>;
  /** deletemessage, then the header count is refreshed. */
  deleteContactMessage(id: number): Promise<AccountWriteResult>;
}

/** Notifications and contact messages are kept in Dexie as the server sends them. */
export type NotificationRow = NotificationWire;
export type ContactMessageRow = ContactMessageWire;
