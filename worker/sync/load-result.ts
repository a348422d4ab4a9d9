import { failure, type LoadError, type LoadResult } from '../base/result.ts';
import { isHttpError } from '../http/http-error.ts';

/** What a failed load means for the UI (SPEC §8): no answer keeps the cache and says 'offline'. */
export function loadErrorOf(error: unknown): LoadError {
  if (!isHttpError(error)) return 'failed';
  if (error.status === 0) return 'offline';
  if (error.status === 401 || error.status === 403) return 'forbidden';
  if (error.status === 404) return 'not_found';
  return 'failed';
}

/** What a failed write means for the UI: no answer is 'offline', anything else 'failed'. */
export function writeErrorOf(error: unknown): 'offline' | 'failed' {
  return isHttpError(error) && error.status === 0 ? 'offline' : 'failed';
}

/** Runs a load, turning its failure into a result instead of a rejection. */
export async function asLoadResult(load: () => Promise<void>): Promise<LoadResult> {
  try {
    await load();
    return { ok: true, value: undefined };
  } catch (error) {
    return failure(loadErrorOf(error));
  }
}

/** A load's result says the user may not see the thing (any more): its rows go. */
export const isGone = (result: LoadResult): boolean =>
  !result.ok && (result.code === 'forbidden' || result.code === 'not_found');
