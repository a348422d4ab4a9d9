import type { ContactMessageWire, NotificationWire } from '../../contract/notifications.ts';
import type { ErrorCode, Result } from './result.ts';

/** What a registration sends (docs/decisions.md). */
export interface RegistrationData {
  /** 3-30 of a-z 0-9 . _ - (the server lowercases it). */
  username: string;
  /** At least 8 characters. */
  password: string;
  /** Property id (from the runtime config's propertyIds) to value: birth year, gender, consent date. */
  properties: Record<string, string>;
}

/** What the child tells about themselves in settings (the registration's birth year and gender). */
export interface ProfileDetails {
  /** Four digits, as the registration's list offers. */
  birthYear: string;
  /** 'female', 'male', 'non-binary' or 'x' (SPEC §3: mapped to the conversation gender). */
  gender: string;
}

/** Why a chosen name was not saved: a staff title or the username itself, or nothing to save. */
export const DISPLAY_NAME_ERRORS = [
  'name_not_allowed',
  'invalid',
  'offline',
  'failed',
] as const satisfies readonly ErrorCode[];
export type DisplayNameError = (typeof DISPLAY_NAME_ERRORS)[number];

/** Usernames and passwords as the server accepts them (docs/decisions.md). */

/** 'unknown' when the server could not be asked. */
export type UsernameAvailability = 'available' | 'taken' | 'unknown';

/**
 * `login_failed`: the account exists but the login afterwards did not work; `common_password` (the
 * password field says so) and `name_not_allowed` (the username field says so).
 */
export const REGISTER_ERRORS = [
  'username_taken',
  'common_password',
  'name_not_allowed',
  'invalid',
  'too_many_attempts',
  'offline',
  'failed',
  'login_failed',
] as const satisfies readonly ErrorCode[];
export type RegisterError = (typeof REGISTER_ERRORS)[number];
export type RegisterResult = Result<void, RegisterError>;

/**
 * `common_password`: the new one is too common or easy to guess; `too_many_attempts`: too many
 * tries of the current password, wait a while; `signed_out`: the password was changed, but signing
 * in again with it failed, so this device is signed out (the server ends every session on a change).
 */
export const CHANGE_PASSWORD_ERRORS = [
  'wrong_password',
  'weak_password',
  'common_password',
  'too_many_attempts',
  'signed_out',
  'offline',
  'failed',
] as const satisfies readonly ErrorCode[];
export type ChangePasswordError = (typeof CHANGE_PASSWORD_ERRORS)[number];
export type ChangePasswordResult = Result<void, ChangePasswordError>;

/** Notifications and contact messages are kept in Dexie as the server sends them. */
export type NotificationRow = NotificationWire;
export type ContactMessageRow = ContactMessageWire;
