import { EXIT_TOKEN_HINT } from '../../contract/quick-exit.ts';
import { VARIANT_HEADER } from '../../contract/variant.ts';
import { prepareKeyShredder, shredAtRestKey } from './key-shredder.ts';
import { forgetPendingExit, keepPendingExit, pendingExit, type ExitRequest } from './pending-exit.ts';

export { pendingExit, type ExitRequest } from './pending-exit.ts';

/**
 * The quick exit's part in the data layer (docs/security.md, "What the device keeps"): as the page
 * goes, the login ends at the server too. The page holds the login's exit handle, a revoke-only
 * value (contract/quick-exit.ts) the worker gives every tab, and sends it to the revocation endpoint
 * with a request that outlives the page (`keepalive`). Offline, the same request is kept in
 * localStorage (it can end the login and do nothing else, so it may stay on the device) and sent at
 * the next start, before the worker starts and before anything is shown; that start also finishes
 * the local part (key shredded, databases deleted) in case the exit was cut short.
 */

/** The data databases a quick exit leaves nothing of (worker/base/db.ts, worker/auth/user-store.ts). */
const SESSION_DATABASES = ['portal-data', 'portal-auth'];
/** How long the next start waits for a database deletion that another page holds up. */
const DELETE_WAIT_MS = 3_000;

/**
 * Where a tab on disk keeps the handle between page loads, so that a quick exit from a page that
 * has just loaded (before its worker answered) still ends the login. It is revoke-only, as the
 * pending request is, so it may be on the device; in shared-device mode it stays in memory.
 */
const HANDLE_KEY = 'portal-exit-handle';

let handle: string | null = null;

/** The worker told this tab the exit handle of the login now signed in (null: none). */
export function holdExitHandle(next: string | null, { keep }: { keep: boolean }): void {
  handle = next;
  if (keep) {
    try {
      if (next) localStorage.setItem(HANDLE_KEY, next);
      else localStorage.removeItem(HANDLE_KEY);
    } catch {
      // Not kept: a quick exit before the worker answers a reload then ends the login at the next start.
    }
  }
  // Signed in: the shredder is started now, so that a quick exit only has to post to it.
  if (next) prepareKeyShredder();
}

/** The exit handle this tab holds now, or the one the last page load on disk kept. */
export function heldExitHandle(): string | null {
  if (handle) return handle;
  try {
    return localStorage.getItem(HANDLE_KEY);
  } catch {
    return null;
  }
}

/**
 * Sends the revocation of `exit`, in a request that goes on after the page is gone. Same-origin,
 * it is a plain form post (whose answer's `Clear-Site-Data: "cache"` also drops the HTTP cache); to
 * another origin the variant header is left out, so that no preflight has to precede it (SPEC §1's
 * header is the API's; the revocation needs only the form).
 */
export function sendExitRevocation(exit: ExitRequest): Promise<boolean> {
  const sameOrigin = new URL(exit.url, location.href).origin === location.origin;
  const headers: Record<string, string> = {};
  if (sameOrigin && exit.variant) headers[VARIANT_HEADER] = exit.variant;
  try {
    return fetch(exit.url, {
      method: 'POST',
      keepalive: true,
      headers,
      body: new URLSearchParams({
        token: exit.handle,
        token_type_hint: EXIT_TOKEN_HINT,
        client_id: exit.clientId,
      }),
    }).then(
      // Any answer of the server's own is final (RFC 7009: 200 for any token); a 5xx is tried again.
      (response) => response.status < 500,
      () => false,
    );
  } catch {
    return Promise.resolve(false);
  }
}

/**
 * As the page goes by the quick exit: the login's revocation is sent and, on disk, kept until the
 * server answered. Nothing is sent without a handle (no login, or the data layer never started).
 */
export function endLoginAsPageGoes(exit: Omit<ExitRequest, 'handle'>, keepUntilAnswered: boolean): void {
  const held = keepUntilAnswered ? heldExitHandle() : handle;
  if (!held) return;
  const request: ExitRequest = { ...exit, handle: held };
  if (keepUntilAnswered) keepPendingExit(request);
  void sendExitRevocation(request).then((answered) => {
    if (answered && keepUntilAnswered) forgetPendingExit(request.handle);
  });
  holdExitHandle(null, { keep: keepUntilAnswered });
}

function deleteDatabase(name: string): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, DELETE_WAIT_MS);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    try {
      const request = indexedDB.deleteDatabase(name);
      request.onsuccess = done;
      request.onerror = done;
    } catch {
      done();
    }
  });
}

/**
 * The next start after a quick exit whose revocation was not seen answered: before the worker
 * starts, the local part is done again (the key shredded, the session's databases deleted), so that
 * an exit the phone cut short (the browser killed at once) leaves nothing that signs in; then the
 * revocation is sent, now and whenever the browser comes back online, until the server answers.
 */
export async function finishPendingExit(): Promise<void> {
  const request = pendingExit();
  if (!request) return;
  if (!request.finished) {
    await shredAtRestKey();
    await Promise.all(SESSION_DATABASES.map(deleteDatabase));
    // Once: a new sign-in before the server answered (its revocation endpoint failing while its
    // login works) must not be wiped at every start.
    keepPendingExit({ ...request, finished: true });
  }
  const send = () =>
    void sendExitRevocation(request).then((answered) => {
      if (!answered) return;
      forgetPendingExit(request.handle);
      removeEventListener('online', send);
    });
  addEventListener('online', send);
  send();
}
