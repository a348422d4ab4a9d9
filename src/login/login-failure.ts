import type { LoginResult } from '../../worker/client/api.ts';
import { LOGIN_TEXTS } from './texts.ts';

/** The text under the login form for a failed login (SPEC §8), or null when it succeeded. */
export function loginFailureText(result: LoginResult): string | null {
  if (result.ok) return null;
  if (result.code === 'invalid_username_or_password') return LOGIN_TEXTS.invalidCredentials;
  if (result.code === 'too_many_attempts') return LOGIN_TEXTS.tooManyAttempts;
  return result.code === 'offline' ? LOGIN_TEXTS.offline : LOGIN_TEXTS.failed;
}
