import type { AppVariant } from '../../contract/variant.ts';

/**
 * The quick exit's revocation while the server has not answered it (worker/client/quick-exit.ts):
 * kept in localStorage, which the page writes at once as it goes (no other storage is written before
 * a page is gone) and the first screen reads without the data layer. It can end the login and do
 * nothing else, so it may stay on the device until it has been sent.
 */
const PENDING_EXIT_KEY = 'portal-pending-exit';

export interface ExitRequest {
  /** The revocation endpoint ({auth}/connect/revocation, SPEC §7). */
  url: string;
  clientId: string;
  /** The login's exit handle (contract/quick-exit.ts). */
  handle: string;
  variant?: AppVariant;
  /** The next start has done the local part again already (it is done once, not at every start). */
  finished?: boolean;
}

/** The revocation a quick exit could not see answered, if any. */
export function pendingExit(): ExitRequest | null {
  try {
    const stored = localStorage.getItem(PENDING_EXIT_KEY);
    if (!stored) return null;
    const request = JSON.parse(stored) as Partial<ExitRequest>;
    return typeof request.url === 'string' &&
      typeof request.clientId === 'string' &&
      typeof request.handle === 'string'
      ? (request as ExitRequest)
      : null;
  } catch {
    return null;
  }
}

export function keepPendingExit(request: ExitRequest): void {
  try {
    localStorage.setItem(PENDING_EXIT_KEY, JSON.stringify(request));
  } catch {
    // Storage refused: the request sent as the page goes is the only chance; the shred still holds.
  }
}

/** The server answered the revocation of `handleSent`: it is no longer kept (a later exit's stays). */
export function forgetPendingExit(handleSent: string): void {
  try {
    if (pendingExit()?.handle === handleSent) localStorage.removeItem(PENDING_EXIT_KEY);
  } catch {
    // Kept: it is sent again at the next start, which the server answers the same.
  }
}
