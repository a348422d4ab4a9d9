import type { ApiErrorBody } from '../contract/errors.ts';

/**
 * Every error the API answers with: a stable code, an HTTP status and a Swedish message a user may
 * be shown. Technical detail goes to the server log, never into the body.
 */
export const API_ERRORS = {
  unauthorized: { status: 401, message: 'Du behöver logga in igen.' },
  forbidden: { status: 403, message: 'Åtkomst nekad.' },
  not_found: { status: 404, message: 'Hittades inte.' },
  bad_request: { status: 400, message: 'Felaktig förfrågan.' },
  unknown_variant: { status: 400, message: 'Okänd appvariant.' },
  validation: { status: 400, message: 'Uppgifterna är inte giltiga.' },
  wrong_password: { status: 400, message: 'Fel lösenord.' },
  weak_password: { status: 400, message: 'Lösenordet måste ha minst 8 tecken.' },
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
} as const;
export type ApiErrorCode = keyof typeof API_ERRORS;

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ApiErrorCode,
    detail?: string,
  ) {
    super(detail ?? API_ERRORS[code].message);
    this.status = API_ERRORS[code].status;
  }
  toBody(): ApiErrorBody & { status?: string } {
    // A conflict names the state that caused it (SPEC §8: chat account status 409 carries a status).
    const status = this.code === 'conflict' ? { status: this.message } : {};
    return { error: this.code, message: API_ERRORS[this.code].message, ...status };
  }
}

/** OAuth 2.0 error bodies (RFC 6749 §5.2) for /connect/*. */
export class OAuthError extends Error {
  constructor(
    readonly error:
      'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unsupported_grant_type' | 'invalid_scope',
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
  }
}
