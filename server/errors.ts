import { API_ERRORS, type ApiErrorBody, type ApiErrorCode } from '../contract/errors.ts';

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

/** Seconds a client is asked to wait (`Retry-After`) when the database cannot be reached. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 2;

/**
 * PostgreSQL's and the driver's ways of saying the database cannot be reached now, as opposed to a
 * statement that failed: class 08 (connection exception), 57P01-57P03 (shut down by an administrator,
 * crashed, cannot connect now: starting up or shutting down), and the socket errors of a server that
 * is not there. Any of them may pass in seconds (a restart, a failover), and a write that failed so
 * was not committed, or was committed with its idempotency key, so its retry is safe.
 */
const UNAVAILABLE_CODES = new Set([
  '57P01',
  '57P02',
  '57P03',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** node-postgres reports a lost or timed-out connection by its message only. */
const UNAVAILABLE_MESSAGE =
  /^(Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable)/i;

/** Whether an error (or its cause) says the database is unavailable rather than the statement wrong. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
    // SQLite's file held by another writer (a backup, a second process) past busy_timeout: nothing
    // was written, and the lock passes.
    if (typeof code === 'string' && code.startsWith('SQLITE_BUSY')) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
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
