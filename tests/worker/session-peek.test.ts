import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { PortalDb } from '../../worker/base/db.ts';
import { peekSession } from '../../worker/client/session-peek.ts';
import { writeSession } from '../../worker/sync/runtime.ts';

// The first screen draws the start page from the session row the data worker last wrote, read with
// the bare IndexedDB API before the data layer (Dexie) has arrived: worker/client/session-peek.ts.

const DATA_DB = 'portal-data';

const deleted = () =>
  new Promise<void>((resolve, reject) => {
    const request = indexedDB.deleteDatabase(DATA_DB);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error);
  });
/**
 * Whether the database exists, asked without creating it. Opens on one name are served in order, so
 * this one sees what every open before it left.
 */
const exists = () =>
  new Promise<boolean>((resolve, reject) => {
    const request = indexedDB.open(DATA_DB);
    request.onupgradeneeded = () => {
      request.transaction!.abort();
      resolve(false);
    };
    request.onsuccess = () => {
      request.result.close();
      resolve(true);
    };
    request.onerror = () => (request.error?.name === 'AbortError' ? undefined : reject(request.error));
  });

afterEach(async () => {
  Reflect.deleteProperty(globalThis, 'localStorage');
  await deleted();
});

describe('the session row, read before the data layer', () => {
  it('is signed out on a device that never held a session, and the look creates no database', async () => {
    expect(await peekSession()).toEqual({ status: 'anonymous' });
    expect(await exists()).toBe(false);
    // The worker's own schema is then the first to create it.
    const db = new PortalDb();
    await db.open();
    expect(db.verno).toBeGreaterThan(1);
    db.close();
  });

  it('is what the worker last wrote: signed in, or signed out and why', async () => {
    const db = new PortalDb();
    await writeSession(db, 'authenticated');
    expect(await peekSession()).toEqual({ status: 'authenticated' });
    await writeSession(db, 'anonymous', 'session_expired');
    expect(await peekSession()).toEqual({ status: 'anonymous', signOutReason: 'session_expired' });
    db.close();
  });

  it('is signed out where the database has no session row yet', async () => {
    const db = new PortalDb();
    await db.open();
    expect(await peekSession()).toEqual({ status: 'anonymous' });
    db.close();
  });

  it('lets go of the database at once, so the worker can upgrade it', async () => {
    // An older database, as an earlier build of the app left it.
    await new Promise<void>((resolve, reject) => {
      const request = indexedDB.open(DATA_DB, 10);
      request.onupgradeneeded = () => request.result.createObjectStore('session', { keyPath: 'id' });
      request.onsuccess = () => {
        request.result.close();
        resolve();
      };
      request.onerror = () => reject(request.error);
    });
    expect(await peekSession()).toEqual({ status: 'anonymous' });
    const db = new PortalDb();
    await db.open();
    expect(db.tables.map((t) => t.name)).toContain('peerPosts');
    db.close();
  });

  it('is not known in shared-device mode, whose session lives in the worker memory', async () => {
    const db = new PortalDb();
    await writeSession(db, 'anonymous');
    db.close();
    Object.assign(globalThis, {
      localStorage: { getItem: (key: string) => (key === 'portal-shared-device' ? '1' : null) },
    });
    expect(await peekSession()).toEqual({ status: 'unknown' });
  });
});
