/**
 * The floor of a chat figure: what reading its rows costs the page without the at-rest sealing
 * (worker/base/at-rest.ts), measured in the page the figure was taken in, on the same rows, right
 * after the timed part. A figure far above its floor spends its time elsewhere than in IndexedDB and
 * JSON (crypto, the UI); one near it has little left to win without storing less.
 *
 * The rows come from the server as the child's app fetches them and are shaped as the worker stores
 * them (`serverRow`), then written unsealed into a database of the bench's own (`bench-floor`), with
 * the app's key path and the index the chat is read by (`[conversation+loggedDate]`), in two stores:
 * - `json`: each row as the sealed table keeps it minus the sealing: the fields IndexedDB compares
 *   (key, conversation, loggedDate, clientId) beside the whole row as a JSON string, as the envelope
 *   holds JSON. The floor is read here: `readMs` (one transaction, the index range, getAll) plus
 *   `parseMs` (JSON.parse of each row) = `totalMs`.
 * - `objects`: each row as it would be stored were nothing sealed, an object; `objectsReadMs` is its
 *   getAll, which deserialises the objects instead of parsing them. Beside the floor, not in it: it
 *   says whether the JSON layout itself costs anything.
 * The database is deleted afterwards.
 */
import type { Page } from '@playwright/test';
import type { ConversationMessageWire } from '../contract/conversations.ts';
import type { ChatMessageRow } from '../worker/base/group-support.ts';
import { serverRow } from '../worker/sync/chat-rows.ts';
import { CHAT_PAGE_ROWS } from '../src/data/chat-pages.ts';

export { CHAT_PAGE_ROWS };

/** Reads of each row set; the floor is their median (the first read warms what the rest find). */
const FLOOR_READS = 5;

export interface Floor {
  /** Rows the index range returned. */
  rows: number;
  readMs: number;
  parseMs: number;
  totalMs: number;
  objectsReadMs: number;
}

/**
 * A conversation's messages as the child's app fetches them (the list the worker's sync asks for,
 * with the child's own token), shaped as the worker stores them.
 */
export async function chatRowsFromServer(
  serverUrl: string,
  childToken: string,
  conversationId: number,
  cursor = '',
): Promise<ChatMessageRow[]> {
  const path = `/portal/features/conversations/conversationsapplication-id/messages`;
  const res = await fetch(
    `${serverUrl}${path}?take=9999&conversation=${conversationId}&selection=mine${cursor}`,
    { headers: { Authorization: `Bearer ${childToken}`, 'X-App-Variant': 'Barn' } },
  );
  if (!res.ok) throw new Error(`the message list answered ${res.status}`);
  return ((await res.json()) as { value: ConversationMessageWire[] }).value.map(serverRow);
}

/**
 * The date the newest `count` rows start at: the range from it on is the page a chat opens with
 * (src/data/chat-pages.ts reads the newest CHAT_PAGE_ROWS by the same index). Ties at that date
 * would add rows; `Floor.rows` says how many the range held.
 */
export function newestFrom(rows: readonly ChatMessageRow[], count = CHAT_PAGE_ROWS): string {
  const dates = rows.map((r) => r.loggedDate).sort();
  return dates[Math.max(0, dates.length - count)] ?? '';
}

/** The oldest date among `rows`: the range from it on holds them all (they are the newest). */
export const oldestFrom = (rows: readonly ChatMessageRow[]): string =>
  rows.map((r) => r.loggedDate).sort()[0] ?? '';

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const tenth = (ms: number) => Math.round(ms * 10) / 10;

/**
 * Writes `rows` (one conversation's) into the floor database in `page` and reads, for each entry of
 * `sets`, the conversation's rows dated from its value on, FLOOR_READS times; deletes the database.
 * The medians, by the sets' names.
 */
export async function measureFloors<Name extends string>(
  page: Page,
  rows: readonly ChatMessageRow[],
  sets: Record<Name, string>,
): Promise<Record<Name, Floor>> {
  const conversation = rows[0]?.conversation;
  if (conversation === undefined) throw new Error('no rows for the floor');
  // No named functions or consts of functions in here: tsx would wrap them in a helper (`__name`)
  // that the page lacks.
  const samples = await page.evaluate(
    async ({ rows, sets, conversation, reads }) => {
      const name = 'bench-floor';
      await new Promise<void>((resolve, reject) => {
        const request = indexedDB.deleteDatabase(name);
        request.onsuccess = () => resolve();
        request.onerror = () => reject(request.error);
      });
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(name, 1);
        request.onupgradeneeded = () => {
          for (const store of ['json', 'objects'])
            request.result
              .createObjectStore(store, { keyPath: 'key' })
              .createIndex('[conversation+loggedDate]', ['conversation', 'loggedDate']);
        };
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      try {
        await new Promise<void>((resolve, reject) => {
          const tx = db.transaction(['json', 'objects'], 'readwrite');
          for (const row of rows) {
            tx.objectStore('objects').put(row);
            tx.objectStore('json').put({
              key: row.key,
              conversation: row.conversation,
              loggedDate: row.loggedDate,
              clientId: row.clientId,
              json: JSON.stringify(row),
            });
          }
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error);
          tx.onabort = () => reject(tx.error ?? new Error('floor write aborted'));
        });
        const result: Record<
          string,
          Array<{ rows: number; readMs: number; parseMs: number; objectsReadMs: number }>
        > = {};
        for (const [set, from] of Object.entries(sets)) {
          const of: (typeof result)[string] = [];
          result[set] = of;
          for (let i = 0; i < reads; i++) {
            const range = IDBKeyRange.bound([conversation, from], [conversation, '\uffff']);
            let start = performance.now();
            const stored = await new Promise<Array<{ json: string }>>((resolve, reject) => {
              const request = db
                .transaction('json')
                .objectStore('json')
                .index('[conversation+loggedDate]')
                .getAll(range);
              request.onsuccess = () => resolve(request.result as Array<{ json: string }>);
              request.onerror = () => reject(request.error);
            });
            const readMs = performance.now() - start;
            start = performance.now();
            const parsed = stored.map((row) => JSON.parse(row.json) as unknown);
            const parseMs = performance.now() - start;
            start = performance.now();
            await new Promise<void>((resolve, reject) => {
              const request = db
                .transaction('objects')
                .objectStore('objects')
                .index('[conversation+loggedDate]')
                .getAll(range);
              request.onsuccess = () => resolve();
              request.onerror = () => reject(request.error);
            });
            const objectsReadMs = performance.now() - start;
            of.push({ rows: parsed.length, readMs, parseMs, objectsReadMs });
          }
        }
        return result;
      } finally {
        db.close();
        await new Promise<void>((resolve) => {
          const request = indexedDB.deleteDatabase(name);
          request.onsuccess = () => resolve();
          request.onerror = () => resolve();
        });
      }
    },
    { rows, sets: sets as Record<string, string>, conversation, reads: FLOOR_READS },
  );
  const floors = {} as Record<Name, Floor>;
  for (const set of Object.keys(sets) as Name[]) {
    const of = samples[set]!;
    floors[set] = {
      rows: of[0]!.rows,
      readMs: tenth(median(of.map((s) => s.readMs))),
      parseMs: tenth(median(of.map((s) => s.parseMs))),
      totalMs: tenth(median(of.map((s) => s.readMs + s.parseMs))),
      objectsReadMs: tenth(median(of.map((s) => s.objectsReadMs))),
    };
  }
  return floors;
}

/** A figure over each floor (how many floors it takes), to two decimals. */
export function overFloors<Name extends string>(
  ms: number,
  floors: Record<Name, Floor>,
): Record<Name, number> {
  const ratios = {} as Record<Name, number>;
  for (const set of Object.keys(floors) as Name[])
    ratios[set] = Math.round((ms / Math.max(0.1, floors[set].totalMs)) * 100) / 100;
  return ratios;
}
