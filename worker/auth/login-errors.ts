import { ErrorResponse, ErrorTimeout } from 'oidc-client-ts';
import { WRONG_CREDENTIALS } from '../../contract/errors.ts';
import type { LoginError } from '../base/session.ts';

/**
 * SPEC §8 login failures. oidc-client-ts drops the HTTP status of an OAuth error body, so a 429 is
 * recognised by the server's `too_many_attempts` description as well as by a status in the message.
 * A login that got no answer is 'offline', so the form can say that instead of 'Något blev fel'.
 */
export function loginErrorOf(error: unknown): LoginError {
  if (error instanceof ErrorResponse) {
    if (error.error_description === WRONG_CREDENTIALS) return 'invalid_username_or_password';
    if (error.error_description === 'too_many_attempts') return 'too_many_attempts';
  }
  if (error instanceof Error && /\(429\)/.test(error.message)) return 'too_many_attempts';
  // No answer at all: fetch rejects with a TypeError (no network, server unreachable), or timed out.
  if (error instanceof TypeError || error instanceof ErrorTimeout) return 'offline';
  return 'failed';
}
