import { MIN_PASSWORD_LENGTH } from './limits.ts';

/**
 * Every error the API answers with: a stable code, an HTTP status and a Swedish message a user may
 * be shown (server/errors.ts throws them; the clients compare the codes and may show the message).
 * Technical detail goes to the server log, never into the body. A screen that has words of its own
 * for a code keeps them in its texts module; where it uses the server's, it takes them from here,
 * so each sentence is written once.
 */
export const API_ERRORS = {
  unauthorized: { status: 401, message: 'Du behöver logga in igen.' },
  forbidden: { status: 403, message: 'Åtkomst nekad.' },
  not_found: { status: 404, message: 'Hittades inte.' },
  bad_request: { status: 400, message: 'Felaktig förfrågan.' },
  unknown_variant: { status: 400, message: 'Okänd appvariant.' },
  validation: { status: 400, message: 'Uppgifterna är inte giltiga.' },
  wrong_password: { status: 400, message: 'Fel lösenord.' },
  weak_password: { status: 400, message: `Lösenordet måste ha minst ${MIN_PASSWORD_LENGTH} tecken.` },
  common_password: {
    status: 400,
    message: 'Lösenordet är för vanligt och lätt att gissa. Välj ett annat.',
  },
  name_not_allowed: { status: 400, message: 'Namnet går inte att använda. Välj ett annat.' },
  foreign_origin: { status: 403, message: 'Förfrågan kom från en annan webbplats.' },
  anti_forgery: { status: 403, message: 'Sidan behöver laddas om. Ladda om sidan och försök igen.' },
  username_taken: { status: 409, message: 'Användarnamnet är upptaget.' },
  conflict: { status: 409, message: 'Det går inte just nu.' },
  too_many_requests: { status: 429, message: 'För många försök. Vänta en stund och försök igen.' },
  rate_limited: {
    status: 429,
    message: 'Du har skickat många gånger på kort tid. Vänta en stund och försök igen.',
  },
  idempotency_mismatch: { status: 422, message: 'Samma nyckel användes för en annan förfrågan.' },
  payload_too_large: { status: 413, message: 'Filen är för stor.' },
  unsupported_type: { status: 415, message: 'Filtypen är inte tillåten.' },
  unsupported_media: { status: 415, message: 'Förfrågan har ett format som inte stöds.' },
  internal: { status: 500, message: 'Något blev fel. Försök igen.' },
  /** The database cannot be reached (restarting, failing over): nothing was written, try again. */
  unavailable: { status: 503, message: 'Tjänsten är inte tillgänglig just nu. Försök igen om en stund.' },
} as const satisfies Record<string, { status: number; message: string }>;

/** The codes of API_ERRORS: what `error` in an {api} error body can be, and nothing else. */
export type ApiErrorCode = keyof typeof API_ERRORS;

export const isApiErrorCode = (value: unknown): value is ApiErrorCode =>
  typeof value === 'string' && Object.hasOwn(API_ERRORS, value);

/** The error body of every failed {api} call: a stable code and a Swedish text. */
export interface ApiErrorBody {
  error: ApiErrorCode;
  message: string;
}

/** The token endpoint's refusal of a wrong username, password or code (an OAuth error, not an {api} one). */
export const WRONG_CREDENTIALS = 'invalid_username_or_password';
