import type { ApiErrorBody } from '../../contract/errors.ts';

/**
 * The `{ error, message }` body of a failed {api} call - a stable code and a Swedish text for the
 * screen (server/errors.ts) - or null when the body is anything else (an HTML error page, a bare
 * string, nothing).
 */
export function apiErrorBodyOf(body: unknown): ApiErrorBody | null {
  if (typeof body !== 'object' || body === null) return null;
  const { error, message } = body as Partial<Record<keyof ApiErrorBody, unknown>>;
  return typeof error === 'string' && typeof message === 'string' ? { error, message } : null;
}
