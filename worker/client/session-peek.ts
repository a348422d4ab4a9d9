import type { AuthStatus, SignOutReason } from '../base/session.ts';
import { pendingExit } from './pending-exit.ts';
import { storedMode } from './storage-mode.ts';

/** The session as the first screen needs it: signed in, signed out, or not yet known. */
export interface Session {
  status: AuthStatus;
  signOutReason?: SignOutReason;
}

/** The data worker's database on disk and the table it writes the session to (worker/base/db.ts). */
const DATA_DB = 'portal-data';
const SESSION_TABLE = 'session';
const SESSION_KEY = 'current';

const UNKNOWN: Session = { status: 'unknown' };

/**
 * The session row the data worker last wrote, read with the bare IndexedDB API: the start page can
 * be drawn from it before the data layer's code (Dexie, the Comlink bridge) has arrived. Answers
 *
 * - 'anonymous' where this device never held a session (no database, or no row: the worker writes
 *   the row at its first start and never deletes it), or where the last one ended, a quick exit
 *   not yet finished included;
 * - the row's status otherwise ('authenticated' is a hint only: the app waits for the data layer
 *   before it draws anything of a signed-in user);
 * - 'unknown' in shared-device mode (that session lives in the worker's memory, not on disk) and
 *   when the database cannot be read.
 *
 * It never creates the database: a first visit's open is aborted in its upgrade, so the worker's
 * own Dexie schema is the first to create it.
 */
export function peekSession(): Promise<Session> {
  if (storedMode() === 'memory' || typeof indexedDB === 'undefined') return Promise.resolve(UNKNOWN);
  // After a quick exit nothing of the session is drawn, not even as a hint (quick-exit.ts).
  const exited = pendingExit();
  if (exited && !exited.finished) return Promise.resolve({ status: 'anonymous' });
  return new Promise<Session>((resolve) => {
    let request: IDBOpenDBRequest;
    try {
      request = indexedDB.open(DATA_DB);
    } catch {
      resolve(UNKNOWN);
      return;
    }
    request.onupgradeneeded = () => {
      // No such database: nothing was ever stored here. Abort, so that none is created.
      request.transaction?.abort();
      resolve({ status: 'anonymous' });
    };
    request.onerror = () => resolve(UNKNOWN);
    request.onblocked = () => resolve(UNKNOWN);
    request.onsuccess = () => {
      const db = request.result;
      try {
        if (!db.objectStoreNames.contains(SESSION_TABLE)) {
          resolve({ status: 'anonymous' });
          return;
        }
        const get = db.transaction(SESSION_TABLE, 'readonly').objectStore(SESSION_TABLE).get(SESSION_KEY);
        get.onsuccess = () => resolve(sessionOf(get.result as Parameters<typeof sessionOf>[0]));
        get.onerror = () => resolve(UNKNOWN);
      } catch {
        resolve(UNKNOWN);
      } finally {
        // Closed at once (after the read it queued): the worker may need to upgrade the database.
        db.close();
      }
    };
  });
}

/** The row as the UI reads it; no row at all: this device never held a session. */
export function sessionOf(row: { status: AuthStatus; signOutReason?: SignOutReason } | undefined): Session {
  if (!row) return { status: 'anonymous' };
  if (row.status === 'anonymous' && row.signOutReason)
    return { status: 'anonymous', signOutReason: row.signOutReason };
  return { status: row.status };
}
