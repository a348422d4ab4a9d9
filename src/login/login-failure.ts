import type { LoginResult } from '../../worker/client/api.ts';
import { LOGIN_TEXTS } from './texts.ts';

/** The text under the login form for a failed login (SPEC §8), or null when it succeeded. */
export function loginFailureText(result: LoginResult): string | null {
  return result.ok ? null : LOGIN_TEXTS.errors[result.code];
}
