import { isCommandErrorCode, type CommandErrorCode } from '../../contract/errors.ts';
import { apiErrorBodyOf } from '../../client-kit/http/api-error-body.ts';

/**
 * A failed call as a value: `status` 0 means the request never got an answer (offline, DNS, CORS),
 * and then `message` is 'Unknown Error' as the client-log skip rule of SPEC §8 expects.
 * `retryAfterMs` is the server's `Retry-After` (a 429 or 503 asking the client to wait), or null.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly method: string,
    readonly url: string,
    readonly body: unknown = null,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const UNKNOWN_ERROR = 'Unknown Error';

export const isHttpError = (e: unknown): e is HttpError => e instanceof HttpError;

/**
 * A failed {api} call as a command reads it: the server's Swedish text, and its code where a
 * command tells that code apart (`reaches: 'command'` in contract/errors.ts), else null; null for a
 * body that is not the API's `{ error, message }`. Comparing any other code is a compile error.
 */
export interface Refusal {
  code: CommandErrorCode | null;
  message: string;
}

export function refusalOf(error: unknown): Refusal | null {
  return isHttpError(error) ? refusalOfBody(error.body) : null;
}

export function refusalOfBody(body: unknown): Refusal | null {
  const parsed = apiErrorBodyOf(body);
  if (!parsed) return null;
  return { code: isCommandErrorCode(parsed.error) ? parsed.error : null, message: parsed.message };
}

/**
 * RFC 9110 `Retry-After`: delay seconds or an HTTP date, as milliseconds from `now`; null when
 * absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now: number): number | null {
  if (value === null || value.trim() === '') return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
