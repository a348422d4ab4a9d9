import type { SignOutReason } from '../../worker/client/api.ts';

/** SPEC §2, §8: an expired session says so on the logged-out page. */
export function loggedOutUrl(reason: SignOutReason | undefined): string {
  return reason === 'session_expired' ? '/utloggad?error=session_expired' : '/utloggad';
}
