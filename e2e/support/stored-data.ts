import type { Page } from '@playwright/test';

/** What a page of the site's origin can read back from every place a browser keeps data. */
export interface StoredData {
  /** Every IndexedDB database: its stores' records. */
  indexedDb: Record<string, Record<string, unknown[]>>;
  /** Every Cache Storage cache: each entry's URL and body. */
  cacheStorage: Record<string, { url: string; body: string }[]>;
  localStorage: Record<string, string>;
  sessionStorage: Record<string, string>;
  /** The HTTP cache's copy of each probed URL, where it has one (`only-if-cached`). */
  httpCache: Record<string, string>;
}

/**
 * Reads everything the page's origin has stored, as someone who picks up the phone next could with
 * the browser's developer tools. `httpUrls` are the same-origin URLs to look for in the HTTP cache
 * (a page cannot list that cache; the test passes the URLs the app fetched).
 */
export function readStoredData(page: Page, httpUrls: readonly string[]): Promise<StoredData> {
  return page.evaluate(async (urls) => {
    const request = <T>(req: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
      });
    const indexedDb: Record<string, Record<string, unknown[]>> = {};
    for (const { name } of await indexedDB.databases()) {
      if (!name) continue;
      const db = await request(indexedDB.open(name));
      const stores: Record<string, unknown[]> = {};
      for (const store of Array.from(db.objectStoreNames)) {
        stores[store] = await request(db.transaction(store).objectStore(store).getAll());
      }
      db.close();
      indexedDb[name] = stores;
    }
    const cacheStorage: Record<string, { url: string; body: string }[]> = {};
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      const entries: { url: string; body: string }[] = [];
      for (const key of await cache.keys()) {
        const response = await cache.match(key);
        entries.push({ url: key.url, body: response ? await response.text() : '' });
      }
      cacheStorage[name] = entries;
    }
    const entriesOf = (storage: Storage) =>
      Object.fromEntries(
        Array.from({ length: storage.length }, (_, i) => storage.key(i) ?? '').map((k) => [
          k,
          storage.getItem(k) ?? '',
        ]),
      );
    const httpCache: Record<string, string> = {};
    for (const url of urls) {
      try {
        const response = await fetch(url, { cache: 'only-if-cached', mode: 'same-origin' });
        httpCache[url] = await response.text();
      } catch {
        // Not in the HTTP cache: `only-if-cached` fails instead of going to the network.
      }
    }
    return {
      indexedDb,
      cacheStorage,
      localStorage: entriesOf(localStorage),
      sessionStorage: entriesOf(sessionStorage),
      httpCache,
    };
  }, httpUrls);
}

/** A JSON Web Token (an access or id token) anywhere in a text. */
export const JWT_PATTERN = /eyJ[\w-]{8,}\.eyJ[\w-]{8,}\./;

/** A refresh token's value in stored JSON (also JSON inside JSON), not the word in the app's code. */
export const REFRESH_TOKEN_PATTERN = /refresh_token\\*":\\*"[\w-]{20,}/;

/** The secrets among `texts` (and any token) that `data` still holds, by the place holding them. */
export function leftBehind(data: StoredData, texts: readonly string[]): string[] {
  const found: string[] = [];
  for (const [place, value] of Object.entries(data)) {
    const text = JSON.stringify(value);
    for (const secret of texts) if (text.includes(secret)) found.push(`${place}: ${secret}`);
    if (JWT_PATTERN.test(text)) found.push(`${place}: a token`);
    if (REFRESH_TOKEN_PATTERN.test(text)) found.push(`${place}: a refresh token`);
  }
  return found;
}
