import { MIN_PASSWORD_LENGTH } from './limits.ts';

/**
 * How a code reaches the young person through the app's data worker:
 * - 'command': a worker command tells it apart by its code and answers a result code of its own,
 *   which the screen that called it words ('Fel lösenord.' beside the password field);
 * - 'status': no command tells it apart from the other codes of its status; the screen says what
 *   the status means (sign in again, not found, wait a while, the general failure), or the worker
 *   deals with it itself (a 503 waits its Retry-After).
 * The worker reads a body's code only as a `CommandErrorCode` (worker/http/http-error.ts), so a
 * command comparing a code the registry says reaches by status is a compile error, and
 * tests/contract/error-registry.test.ts names a 'command' code that no command compares.
 */
export type ErrorReach = 'command' | 'status';

/**
 * Every error the API answers with: a stable code, an HTTP status, how it reaches the child, and a
 * Swedish message a user may be shown (server/errors.ts throws them; the clients compare the codes
 * and may show the message; the staff console shows the message as it is). Technical detail goes
 * to the server log, never into the body. A screen that has words of its own for a code keeps them
 * in its texts module; where it uses the server's, it takes them from here, so each sentence is
 * written once. tests/server/api/error-codes.test.ts provokes each code over HTTP, from a table
 * keyed by the code: a new one is a compile error there until a test provokes it.
 */
export const API_ERRORS = {
  unauthorized: { status: 401, reaches: 'status', message: 'Du behöver logga in igen.' },
  forbidden: { status: 403, reaches: 'status', message: 'Åtkomst nekad.' },
  not_found: { status: 404, reaches: 'status', message: 'Hittades inte.' },
  bad_request: { status: 400, reaches: 'status', message: 'Felaktig förfrågan.' },
  unknown_variant: { status: 400, reaches: 'status', message: 'Okänd appvariant.' },
  validation: { status: 400, reaches: 'command', message: 'Uppgifterna är inte giltiga.' },
  wrong_password: { status: 400, reaches: 'command', message: 'Fel lösenord.' },
  weak_password: {
    status: 400,
    reaches: 'command',
    message: `Lösenordet måste ha minst ${MIN_PASSWORD_LENGTH} tecken.`,
  },
  common_password: {
    status: 400,
    reaches: 'command',
    message: 'Lösenordet är för vanligt och lätt att gissa. Välj ett annat.',
  },
  name_not_allowed: {
    status: 400,
    reaches: 'command',
    message: 'Namnet går inte att använda. Välj ett annat.',
  },
  foreign_origin: { status: 403, reaches: 'status', message: 'Förfrågan kom från en annan webbplats.' },
  anti_forgery: {
    status: 403,
    reaches: 'command',
    message: 'Sidan behöver laddas om. Ladda om sidan och försök igen.',
  },
  username_taken: { status: 409, reaches: 'status', message: 'Användarnamnet är upptaget.' },
  conflict: { status: 409, reaches: 'status', message: 'Det går inte just nu.' },
  too_many_requests: {
    status: 429,
    reaches: 'status',
    message: 'För många försök. Vänta en stund och försök igen.',
  },
  rate_limited: {
    status: 429,
    reaches: 'status',
    message: 'Du har skickat många gånger på kort tid. Vänta en stund och försök igen.',
  },
  idempotency_mismatch: {
    status: 422,
    reaches: 'status',
    message: 'Samma nyckel användes för en annan förfrågan.',
  },
  payload_too_large: { status: 413, reaches: 'status', message: 'Filen är för stor.' },
  unsupported_type: { status: 415, reaches: 'status', message: 'Filtypen är inte tillåten.' },
  unsupported_media: { status: 415, reaches: 'status', message: 'Förfrågan har ett format som inte stöds.' },
  internal: { status: 500, reaches: 'status', message: 'Något blev fel. Försök igen.' },
  /** The database cannot be reached (restarting, failing over): nothing was written, try again. */
  unavailable: {
    status: 503,
    reaches: 'status',
    message: 'Tjänsten är inte tillgänglig just nu. Försök igen om en stund.',
  },
} as const satisfies Record<string, { status: number; reaches: ErrorReach; message: string }>;

/** The codes of API_ERRORS: what `error` in an {api} error body can be, and nothing else. */
export type ApiErrorCode = keyof typeof API_ERRORS;

/** The codes a worker command tells apart (`reaches: 'command'`): the only ones it may compare. */
export type CommandErrorCode = {
  [K in ApiErrorCode]: (typeof API_ERRORS)[K]['reaches'] extends 'command' ? K : never;
}[ApiErrorCode];

export const isApiErrorCode = (value: unknown): value is ApiErrorCode =>
  typeof value === 'string' && Object.hasOwn(API_ERRORS, value);

export const isCommandErrorCode = (code: ApiErrorCode): code is CommandErrorCode =>
  API_ERRORS[code].reaches === 'command';

/** The error body of every failed {api} call: a stable code and a Swedish text. */
export interface ApiErrorBody {
  error: ApiErrorCode;
  message: string;
}

/** The token endpoint's refusal of a wrong username, password or code (an OAuth error, not an {api} one). */
export const WRONG_CREDENTIALS = 'invalid_username_or_password';
