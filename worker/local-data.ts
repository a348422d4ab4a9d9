import type Dexie from 'dexie';
import type { AtRestKey } from './client/at-rest.ts';
import { delay, type Clock } from './clock.ts';

/**
 * A sign-out waits this long for the deletions; a connection that keeps a database open (a tab
 * that does not answer) delays its deletion until it closes, and the sign-out goes on meanwhile.
 */
export const ERASE_WAIT_MS = 5_000;

/**
 * Disk mode's sign-out: the at-rest key is destroyed and the databases are deleted, not cleared
 * (cleared rows may stay in a database file until the browser compacts it; sealed ones can no
 * longer be opened). Answers false where no key was ever made: nothing sealed, nothing to destroy.
 */
export async function eraseDiskData(
  key: AtRestKey,
  databases: readonly Dexie[],
  clock: Clock,
): Promise<boolean> {
  if (!(await key.current())) return false;
  const erased = Promise.all([
    key.destroy(),
    ...databases.map((db) => db.delete({ disableAutoOpen: false })),
  ]);
  const settled = await Promise.race([
    erased.then(() => true),
    delay(clock, ERASE_WAIT_MS).then(() => false),
  ]);
  if (!settled) console.warn('Sign-out: a database is held open elsewhere; it is deleted once that closes');
  return true;
}
