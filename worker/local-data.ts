import type Dexie from 'dexie';
import type { AtRestKey } from './base/at-rest.ts';
import { delay, type Clock } from './clock.ts';

/**
 * A sign-out waits this long for the deletions; a connection that keeps a database open (a tab
 * that does not answer) delays its deletion until it closes, and the sign-out goes on meanwhile.
 */
export const ERASE_WAIT_MS = 5_000;

/**
 * Disk mode's sign-out: the at-rest key is shredded (overwritten where it lies: worker/key-file/)
 * and the databases are deleted, not cleared (cleared rows may stay in a database file until the
 * browser compacts them; sealed ones can no longer be opened). The shred always runs, also where
 * this worker holds no key (a quick exit's page may have shredded it first): from here on no key is
 * made until the next sign-in, so a write still under way fails instead of sealing under a new one.
 * Answers false where no key was there to shred (a signed-out start): the caller then clears the
 * tables, whose rows (if any) were sealed with a key that is gone.
 */
export async function eraseDiskData(
  key: AtRestKey,
  databases: readonly Dexie[],
  clock: Clock,
): Promise<boolean> {
  const held = (await key.current()) !== undefined || (await key.hasLegacy());
  // The key first: once it is gone, what the deletions leave behind opens for no one.
  await key.destroy().catch((error: unknown) => console.error('At-rest key not shredded', error));
  if (!held) return false;
  const erased = Promise.all(databases.map((db) => db.delete({ disableAutoOpen: false })));
  const settled = await Promise.race([
    erased.then(() => true),
    delay(clock, ERASE_WAIT_MS).then(() => false),
  ]);
  if (!settled) console.warn('Sign-out: a database is held open elsewhere; it is deleted once that closes');
  return true;
}

/**
 * The last design kept the at-rest key in IndexedDB, which no deletion can shred (its bytes stay in
 * the database files until the browser compacts them). At the first start after it, every sealed
 * row is read with that key and written again under the file's key, the session and the outbox
 * included (nothing waiting to be sent is lost), and the old key's database is deleted.
 */
export async function moveLegacyRows(key: AtRestKey, databases: readonly Dexie[]): Promise<void> {
  for (const db of databases) {
    for (const table of db.tables) {
      await db.transaction('rw', table, async () => {
        const rows = await table.toArray();
        if (rows.length) await table.bulkPut(rows);
      });
    }
  }
  await key.deleteLegacy();
}
