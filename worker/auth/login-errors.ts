import { ErrorResponse } from 'oidc-client-ts';
import { WRONG_CREDENTIALS } from '../../contract/errors.ts';
import type { LoginError } from '../client/session.ts';

/**
 * SPEC §8 login failures. oidc-client-ts drops the HTTP status of an OAuth error body, so a 429 is
 * recognised by the server's `too_many_attempts` description as well as by a status in the message.
 */
export function loginErrorOf(error: unknown): LoginError {
  if (error instanceof ErrorResponse) {
    if (error.error_description === WRONG_CREDENTIALS) return 'invalid_username_or_password';
    if (error.error_description === 'too_many_attempts') return 'too_many_attempts';
  }
  if (error instanceof Error && /\(429\)/.test(error.message)) return 'too_many_attempts';
  return 'failed';
}
