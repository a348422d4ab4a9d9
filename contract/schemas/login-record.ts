import { Type, type Static } from '@sinclair/typebox';
import { DateText, Id, Int, Query, StringEnum } from './common.ts';

/**
 * The kinds of the login record (server/auth/login-record.ts, docs/security.md "Login limits"):
 * - `wrong_password`: a wrong password for the account reached the check;
 * - `refused_pair`, `refused_address`, `refused_username`: an attempt at the account refused with
 *   429, by its username+address counter, by the brake on its address (across usernames), or by the
 *   brake on its username (from every address);
 * - `device_token_braked`: the account's own device token came with an attempt and was ignored,
 *   its own counter waiting (a copy being guessed with, or many typos on the device);
 * - `brake_passed`: the owner signed in while a brake was on, let past it by a known address or
 *   their device token.
 */
export const LOGIN_RECORD_KINDS = [
  'wrong_password',
  'refused_pair',
  'refused_address',
  'refused_username',
  'device_token_braked',
  'brake_passed',
] as const;
export type LoginRecordKind = (typeof LOGIN_RECORD_KINDS)[number];

/** GET /portal/staff/login-record (administrators) */
export const LoginRecordQuery = Query({
  accountId: Type.Optional(Id),
  kind: Type.Optional(StringEnum(LOGIN_RECORD_KINDS)),
  /** Rows whose last attempt is at or after this time. */
  from: Type.Optional(DateText),
  take: Type.Optional(Int(1, 1000)),
  skip: Type.Optional(Int(0, 1_000_000)),
});
export type LoginRecordQuery = Static<typeof LoginRecordQuery>;

/** One row of the answer: one account, hour and kind. */
export interface LoginRecordRow {
  accountId: number;
  kind: LoginRecordKind;
  /** The hour the row counts (its start, ISO). */
  hour: string;
  count: number;
  firstAt: string;
  lastAt: string;
  /** The last attempt's network (/24, /48) as a short keyed digest: equal values, one network. */
  network: string | null;
}
