import { readFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';

/**
 * Chromium's stores of what its password manager and autofill keep, in a profile's `Default`
 * folder: the saved passwords with the statistics of its 'save?' bubble (`Login Data`, and
 * `Login Data For Account` for a signed-in Google account) and the autofill entries (`Web Data`).
 * Each is an SQLite file; its journal is read too, and the bytes themselves, so a deleted row still
 * in a free page counts as well.
 */
export const LOGIN_STORES = ['Login Data', 'Login Data For Account', 'Web Data'] as const;

/** Where each of `texts` lies in the login stores, as bytes (UTF-8 or UTF-16, as SQLite keeps text). */
export async function loginStoreTraces(profileFolder: string, texts: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const store of LOGIN_STORES) {
    for (const file of [store, `${store}-journal`, `${store}-wal`]) {
      const bytes = await readFile(path.join(profileFolder, 'Default', file)).catch(() => null);
      if (!bytes) continue;
      for (const text of texts) {
        const forms = [Buffer.from(text, 'utf8'), Buffer.from(text, 'utf16le')];
        if (forms.some((form) => bytes.includes(form))) found.push(`${file}: ${text}`);
      }
    }
  }
  return found;
}

/** The `Login Data` store's rows that name a site: saved logins and the 'save?' bubble's statistics. */
export function loginDataRows(profileFolder: string): string[] {
  const db = new Database(path.join(profileFolder, 'Default', 'Login Data'), {
    readonly: true,
    fileMustExist: true,
  });
  try {
    const logins = db.prepare('SELECT origin_url, username_value FROM logins').all() as Array<{
      origin_url: string;
      username_value: string;
    }>;
    const stats = db.prepare('SELECT origin_domain, username_value FROM stats').all() as Array<{
      origin_domain: string;
      username_value: string;
    }>;
    return [
      ...logins.map((row) => `logins: ${row.origin_url} ${row.username_value}`),
      ...stats.map((row) => `stats: ${row.origin_domain} ${row.username_value}`),
    ];
  } finally {
    db.close();
  }
}
