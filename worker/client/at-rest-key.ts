/**
 * The database that holds the at-rest key (at-rest.ts). Named apart from Dexie, so that the first
 * screen's quick exit can destroy the key before the data layer has loaded.
 */
export const AT_REST_KEY_DB = 'portal-key';

/**
 * Destroys the at-rest key from a page that is about to go (the quick exit): the request is handed
 * to the browser at once and completes without this page, once the connections holding the database
 * have closed (each closes on the deletion's versionchange). What the app stored on this device can
 * then no longer be read: the session on it is over, and the worker signs out at its next check.
 */
export function destroyAtRestKey(): void {
  try {
    indexedDB.deleteDatabase(AT_REST_KEY_DB);
  } catch (error) {
    console.error('At-rest key not deleted', error);
  }
}
