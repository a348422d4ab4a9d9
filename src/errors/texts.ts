import { API_ERRORS } from '../../contract/errors.ts';
import { MIN_PASSWORD_LENGTH } from '../../contract/limits.ts';
import type { ErrorCode } from '../../worker/client/result.ts';

/** Codes of the worker's results, and nothing else: a misspelt one is a compile error. */
type Codes<C extends ErrorCode> = C;
/** The worker's result codes whose Swedish text reads the same on every page that receives them. */
type SharedErrorCode = Codes<
  'offline' | 'failed' | 'name_not_allowed' | 'common_password' | 'weak_password' | 'too_many_attempts'
>;

/**
 * The Swedish texts of the worker's result codes (worker/base/result.ts) that read the same on
 * every page; where the server has the words (contract/errors.ts), they are its. Each page keys its
 * own table by the codes its command can answer (`satisfies Record<RegisterError, string>` and the
 * like), taking these where it has no words of its own (the start page's 'Det gick inte att starta
 * chatten' is its own).
 */
export const ERROR_TEXTS = {
  /** A write (or a call) got no answer. */
  offline: 'Det gick inte att nå servern. Kontrollera internetuppkopplingen och försök igen.',
  failed: 'Något blev fel. Försök igen.',
  /** A name (a username, the name others see) that reads as a staff title, or is the username. */
  name_not_allowed: API_ERRORS.name_not_allowed.message,
  common_password: API_ERRORS.common_password.message,
  weak_password: API_ERRORS.weak_password.message,
  /** The server asked to wait (429) after too many tries. */
  too_many_attempts: API_ERRORS.too_many_requests.message,
} as const satisfies Record<SharedErrorCode, string>;

/** Beside a new password's field (the rule weak_password refuses). */
export const PASSWORD_HINT = `Minst ${MIN_PASSWORD_LENGTH} tecken.`;

/**
 * Ours (SPEC is silent): the server answers, but only with server errors (5xx). Told like a line
 * that does not answer (the messages say 'Väntar på nätet'), and without blaming the child's
 * network, which works.
 */
export const SERVICE_NOT_ANSWERING_TEXT =
  'Tjänsten svarar inte just nu. Det du skriver skickas så snart den svarar igen.';

/** A load got no answer: the page shows what it has cached. */
export const OFFLINE_CACHED_TEXT = 'Du verkar vara offline. Det du ser kan vara gammalt.';
