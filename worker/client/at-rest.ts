import Dexie, {
  type DBCore,
  type DBCoreCursor,
  type DBCoreTable,
  type DBCoreTableSchema,
  type DBCoreTransaction,
  type DexieOptions,
  type EntityTable,
  type Middleware,
} from 'dexie';
import { AT_REST_KEY_DB } from './at-rest-key.ts';

/**
 * The child's content at rest (docs/decisions.md, "What stays on the device after logout"): rows of
 * the data and token databases are stored encrypted (AES-GCM) with a key that cannot be read out of
 * the browser (a non-extractable WebCrypto key) and that a sign-out destroys, with the databases
 * themselves. Whatever a disk still holds afterwards (a database file not yet compacted) is
 * ciphertext whose key is gone.
 *
 * What stays readable in a row: its primary key and indexed fields (ids, dates, states: what
 * IndexedDB must compare to find rows); everything else is in the envelope. One Dexie middleware
 * does it for every table that holds the child's content, below every other layer, so the app's
 * code, its live queries and Dexie's own hooks see plain rows.
 */

/** Where a stored row keeps its encrypted content. */
const ENVELOPE = '$sealed';
export const IV_BYTES = 12;
/** How many opened rows each table keeps in memory (a long chat and its neighbours). */
const OPENED_KEPT = 2_000;

interface KeyRecord {
  id: 'current';
  /** Names the key in each envelope, so a row sealed with a destroyed key is recognised as such. */
  keyId: string;
  key: CryptoKey;
}

/**
 * A sealed row's envelope, one string: the key's id (KEY_ID_CHARS), the iv and the ciphertext, the
 * bytes as characters 0-255. A string, not buffers: reading back 10,000 rows with two buffers each
 * cost the page half a second of deserialisation in Chromium; a one-byte string is copied as it is.
 */
export const KEY_ID_CHARS = 8;

function toByteString(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 8192) text += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return text;
}

function fromByteString(text: string, from: number, to = text.length): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(to - from);
  for (let i = from; i < to; i++) bytes[i - from] = text.charCodeAt(i);
  return bytes;
}

class KeyDb extends Dexie {
  keys!: EntityTable<KeyRecord, 'id'>;

  constructor(name: string, options?: DexieOptions) {
    super(name, options);
    this.version(1).stores({ keys: 'id' });
  }
}

/** The at-rest key of this browser profile: created at the first write that needs it, destroyed at sign-out. */
export class AtRestKey {
  private readonly db: KeyDb;
  private known: Promise<KeyRecord | undefined> | null = null;

  constructor(name = AT_REST_KEY_DB, options?: DexieOptions) {
    this.db = new KeyDb(name, options);
    // Another context deletes the key (a sign-out in another worker): the copy held here goes too.
    this.db.on('versionchange', () => {
      this.known = null;
    });
  }

  /** The key database's name. */
  get name(): string {
    return this.db.name;
  }

  /** The key rows are read with; `keyId` names the one a row was sealed with (read again if it differs). */
  async current(keyId?: string): Promise<KeyRecord | undefined> {
    const record = await this.load();
    if (keyId === undefined || record?.keyId === keyId) return record;
    this.known = null;
    return this.load();
  }

  /** The key new rows are sealed with, made now if there is none. */
  async forWriting(): Promise<KeyRecord> {
    const record = await this.load();
    if (record) return record;
    const made: KeyRecord = {
      id: 'current',
      keyId: crypto.randomUUID().slice(0, KEY_ID_CHARS),
      key: await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']),
    };
    // Two workers may make one at once (one worker per tab where SharedWorker is missing): the first stored wins.
    const stored = Dexie.ignoreTransaction(() =>
      this.db.transaction('rw', this.db.keys, async () => {
        const existing = await this.db.keys.get('current');
        if (existing) return existing;
        await this.db.keys.add(made);
        return made;
      }),
    );
    this.known = stored;
    return stored;
  }

  /** Deletes the key's database: what was sealed with it can no longer be read by anyone. */
  async destroy(): Promise<void> {
    this.known = null;
    await Dexie.ignoreTransaction(() => this.db.delete({ disableAutoOpen: false }));
  }

  private load(): Promise<KeyRecord | undefined> {
    this.known ??= Dexie.ignoreTransaction(() => this.db.keys.get('current')).catch((error: unknown) => {
      console.warn('At-rest key not readable', error);
      this.known = null;
      return undefined;
    });
    return this.known;
  }
}

/** Seals and opens rows; a row sealed with a key that is gone opens as undefined. */
class Sealer {
  /** Rows opened lately, by key and iv, as JSON (each read parses its own copy). */
  private readonly opened = new Map<string, string>();

  constructor(
    private readonly key: AtRestKey,
    private readonly plainFields: readonly string[],
  ) {}

  async seal(row: unknown): Promise<unknown> {
    if (!row || typeof row !== 'object') return row;
    const { keyId, key } = await this.key.forWriting();
    const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
    const data = new TextEncoder().encode(JSON.stringify(row));
    const cipher = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, data));
    const sealed: Record<string, unknown> = { [ENVELOPE]: keyId + toByteString(iv) + toByteString(cipher) };
    for (const field of this.plainFields) {
      if (field in row) sealed[field] = (row as Record<string, unknown>)[field];
    }
    return sealed;
  }

  async open(stored: unknown): Promise<unknown> {
    if (!stored || typeof stored !== 'object' || !(ENVELOPE in stored)) return stored;
    const envelope = (stored as Record<string, unknown>)[ENVELOPE];
    if (typeof envelope !== 'string') return undefined;
    const keyId = envelope.slice(0, KEY_ID_CHARS);
    const record = await this.key.current(keyId);
    if (!record || record.keyId !== keyId) return undefined;
    // A sealed row never changes (a rewrite seals it anew, with a new iv): what was opened once is
    // kept, so a live query that runs again does not decrypt every row again. Still under the key:
    // a row whose key is gone is not answered from here.
    const id = envelope.slice(0, KEY_ID_CHARS + IV_BYTES);
    let json = this.opened.get(id);
    if (json === undefined) {
      try {
        const iv = fromByteString(envelope, KEY_ID_CHARS, KEY_ID_CHARS + IV_BYTES);
        const cipher = fromByteString(envelope, KEY_ID_CHARS + IV_BYTES);
        const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv }, record.key, cipher);
        json = new TextDecoder().decode(plain);
      } catch {
        return undefined;
      }
      if (this.opened.size >= OPENED_KEPT) this.opened.delete(this.opened.keys().next().value!);
      this.opened.set(id, json);
    }
    return JSON.parse(json) as unknown;
  }
}

/** Fields IndexedDB reads to find rows: the primary key and every index's key path. */
function plainFieldsOf(schema: DBCoreTableSchema): string[] {
  const paths = [schema.primaryKey, ...schema.indexes].flatMap((index) =>
    index.keyPath === null ? [] : Array.isArray(index.keyPath) ? index.keyPath : [index.keyPath],
  );
  return [...new Set(paths as string[])];
}

/**
 * Settles `work` (crypto, which IndexedDB does not wait for) inside a request callback of `trans`,
 * keeping the transaction alive meanwhile with reads of nothing, as Dexie.waitFor does: without it
 * IndexedDB commits the transaction while the crypto runs, and the transaction's next step fails.
 */
function whileAlive<T>(
  trans: DBCoreTransaction,
  tableName: string,
  work: Promise<T>,
  always = false,
): Promise<T> {
  // A read-only transaction has nothing to do after a read (the app's live queries each run in
  // transactions of their own), and each spin is a request to the browser's IndexedDB: needless
  // there, except for a cursor (`always`), whose next step must come while the transaction lives.
  if (!always && (trans as IDBTransaction).mode !== 'readwrite') return work;
  return new Promise<T>((resolve, reject) => {
    let settle: (() => void) | null = null;
    work.then(
      (value) => (settle = () => resolve(value)),
      (error: unknown) => (settle = () => reject(error instanceof Error ? error : new Error(String(error)))),
    );
    let store: IDBObjectStore;
    try {
      store = (trans as IDBTransaction).objectStore(tableName);
    } catch {
      work.then(resolve, reject);
      return;
    }
    const spin = () => {
      if (settle) return settle();
      try {
        store.get(-Infinity).onsuccess = spin;
      } catch {
        // The transaction has ended (a read-only one with nothing more to do): settle when done.
        work.then(resolve, reject);
      }
    };
    spin();
  });
}

/** A cursor whose rows are opened before the caller sees them; rows that cannot be opened are skipped. */
function openingCursor(cursor: DBCoreCursor, tableName: string, sealer: Sealer): DBCoreCursor {
  let value: unknown;
  return Object.create(cursor, {
    key: { get: () => cursor.key },
    primaryKey: { get: () => cursor.primaryKey },
    value: { get: () => value },
    start: {
      value: (onNext: () => void) =>
        cursor.start(() => {
          whileAlive(cursor.trans, tableName, sealer.open(cursor.value), true).then(
            (row) => {
              try {
                if (row === undefined) {
                  cursor.continue();
                  return;
                }
                value = row;
                onNext();
              } catch (error) {
                cursor.fail(error as Error);
              }
            },
            (error: unknown) => cursor.fail(error as Error),
          );
        }),
    },
  }) as DBCoreCursor;
}

function sealedTable(table: DBCoreTable, sealer: Sealer): DBCoreTable {
  const name = table.name;
  const openAll = (trans: DBCoreTransaction, rows: readonly unknown[]) =>
    whileAlive(trans, name, Promise.all(rows.map((row) => sealer.open(row))));
  return {
    ...table,
    mutate: (req) =>
      req.type === 'add' || req.type === 'put'
        ? whileAlive(req.trans, name, Promise.all(req.values.map((row) => sealer.seal(row)))).then((values) =>
            table.mutate({ ...req, values }),
          )
        : table.mutate(req),
    get: (req) => table.get(req).then((row) => whileAlive(req.trans, name, sealer.open(row))),
    getMany: (req) => table.getMany(req).then((rows) => openAll(req.trans, rows)),
    query: async (req) => {
      const response = await table.query(req);
      if (!req.values) return response;
      const rows = await openAll(req.trans, response.result);
      return { ...response, result: rows.filter((row) => row !== undefined) };
    },
    openCursor: async (req) => {
      const cursor = await table.openCursor(req);
      return cursor && req.values ? openingCursor(cursor, name, sealer) : cursor;
    },
  };
}

/**
 * The middleware that seals the tables `sealed` names with `key`. Level -2: below Dexie's own layers
 * (hooks, the live-query observation, the cache of existing values), which all see plain rows.
 */
export function sealAtRest(key: AtRestKey, sealed: (table: string) => boolean): Middleware<DBCore> {
  return {
    stack: 'dbcore',
    name: 'at-rest',
    level: -2,
    create: (down) => {
      const tables = new Map<string, DBCoreTable>();
      return {
        ...down,
        table: (name) => {
          let table = tables.get(name);
          if (!table) {
            const plain = down.table(name);
            table = sealed(name) ? sealedTable(plain, new Sealer(key, plainFieldsOf(plain.schema))) : plain;
            tables.set(name, table);
          }
          return table;
        },
      };
    },
  };
}
