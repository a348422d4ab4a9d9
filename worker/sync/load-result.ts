import type { LoadResult } from '../client/group-support.ts';
import { isHttpError } from '../http/http-error.ts';

/** What a failed load means for the UI (SPEC §8): no answer keeps the cache and says 'offline'. */
export function loadResultOf(error: unknown): LoadResult {
  if (!isHttpError(error)) return 'failed';
  if (error.status === 0) return 'offline';
  if (error.status === 401 || error.status === 403) return 'forbidden';
  if (error.status === 404) return 'not_found';
  return 'failed';
}

/** Runs a load, turning its failure into a LoadResult instead of a rejection. */
export async function asLoadResult(load: () => Promise<void>): Promise<LoadResult> {
  try {
    await load();
    return 'ok';
  } catch (error) {
    return loadResultOf(error);
  }
}
