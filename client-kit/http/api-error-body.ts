import { isApiErrorCode, type ApiErrorBody } from '../../contract/errors.ts';

/**
 * The `{ error, message }` body of a failed {api} call - a stable code and a Swedish text for the
 * screen (contract/errors.ts) - or null when the body is anything else (an HTML error page, a bare
 * string, nothing, a code this client does not know: it is then told by its status alone).
 */
export function apiErrorBodyOf(body: unknown): ApiErrorBody | null {
  if (typeof body !== 'object' || body === null) return null;
  const { error, message } = body as Partial<Record<keyof ApiErrorBody, unknown>>;
  return isApiErrorCode(error) && typeof message === 'string' ? { error, message } : null;
}
