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
import { KEY_BYTES, KEY_FILE_BYTES, KEY_ID_CHARS, LEGACY_KEY_DB, type KeyFile } from './at-rest-key.ts';

/**
 * The child's content at rest (docs/security.md, "What the device keeps"): rows of
 * the data and token databases are stored encrypted (AES-GCM) under the at-rest key, which lives in
 * a file of its own that a sign-out and a quick exit overwrite where it lies (at-rest-key.ts). What
 * a disk still holds afterwards (a database file not yet compacted) is ciphertext whose key is gone.
 *
 * What stays readable in a row: its primary key and indexed fields (ids, dates, states: what
 * IndexedDB must compare to find rows); everything else is in the envelope. One Dexie middleware
 * does it for every table that holds the child's content, below every other layer, so the app's
 * code, its live queries and Dexie's own hooks see plain rows. A read of many rows opens them in one
 * batch: one key lookup, the decryptions side by side (WebCrypto runs them off the calling thread),
 * no promise chain per row.
 */

/** Where a stored row keeps its encrypted content. */
const ENVELOPE = '$sealed';
export const IV_BYTES = 12;
export { KEY_ID_CHARS };
/**
 * How many opened rows each table keeps in memory: a long chat, so that its whole-list refetch (the
 * worker compares what it fetched with what it stored) decrypts only what is new.
 */
const OPENED_KEPT = 10_000;

interface KeyRecord {
  /** Names the key in each envelope, so a row sealed with a destroyed key is recognised as such. */
  keyId: string;
  key: CryptoKey;
}

/**
 * A sealed row's envelope, one string: the key's id (KEY_ID_CHARS), the iv and the ciphertext, the
 * bytes as characters 0-255. A string, not buffers: reading back 10,000 rows with two buffers each
 * cost the page half a second of deserialisation in Chromium; a one-byte string is copied as it is.
 */
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

/** The key of a key file's bytes (which are zeroed once imported: the key then exists only as a CryptoKey). */
async function keyOfFile(bytes: Uint8Array): Promise<KeyRecord> {
  try {
    const keyId = String.fromCharCode(...bytes.subarray(0, KEY_ID_CHARS));
    const raw = bytes.slice(KEY_ID_CHARS, KEY_ID_CHARS + KEY_BYTES);
    const key = await crypto.subtle.importKey('raw', raw, { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']);
    raw.fill(0);
    return { keyId, key };
  } finally {
    bytes.fill(0);
  }
}

/** A new key file's bytes: a random key id of the envelope's alphabet and a random key. */
function newKeyFileBytes(): Uint8Array {
  const bytes = crypto.getRandomValues(new Uint8Array(KEY_FILE_BYTES));
  const id = crypto.randomUUID().replace(/-/g, '').slice(0, KEY_ID_CHARS);
  for (let i = 0; i < KEY_ID_CHARS; i++) bytes[i] = id.charCodeAt(i);
  return bytes;
}

/** The last design's key database: read only to move its rows under the file's key, then deleted. */
class LegacyKeyDb extends Dexie {
  keys!: EntityTable<KeyRecord & { id: 'current' }, 'id'>;

  constructor(name: string, options?: DexieOptions) {
    super(name, options);
    this.version(1).stores({ keys: 'id' });
  }
}

/**
 * The at-rest key of this browser profile, kept in the key file: made at the first write that needs
 * it (by the data worker), read by every context that opens rows, shredded at sign-out and at a quick
 * exit. Each context keeps the key it read in memory only.
 */
export class AtRestKey {
  private known: Promise<KeyRecord | undefined> | null = null;
  private legacyKey: Promise<KeyRecord | undefined> | null = null;
  /**
   * After a shred, no key is made (nor the shredded one used) until a sign-in asks for one: a write
   * still under way as the session ended (a profile fetched just before) fails rather than leave a
   * new key and the user's rows on the device (`allowNewKey`).
   */
  private shredded = false;
  private readonly forgotten = new Set<() => void>();

  constructor(
    private readonly file: KeyFile,
    /** Where the last design kept its key (another name in tests); its rows open until moved. */
    private readonly legacyName = LEGACY_KEY_DB,
    private readonly legacyOptions?: DexieOptions,
  ) {}

  /**
   * The key rows are read with; `keyId` names the one a row was sealed with: a key made elsewhere
   * since this context read the file is read again, and a row of the last design opens with its key.
   */
  async current(keyId?: string): Promise<KeyRecord | undefined> {
    const record = await this.load();
    if (keyId === undefined || record?.keyId === keyId) return record;
    this.known = null;
    const reread = await this.load();
    if (reread?.keyId === keyId) return reread;
    const legacy = await this.legacy();
    return legacy?.keyId === keyId ? legacy : reread;
  }

  /** The key new rows are sealed with, made now if there is none. */
  async forWriting(): Promise<KeyRecord> {
    if (this.shredded) throw new Error('Signed out: no at-rest key until the next sign-in');
    const record = await this.load();
    if (record) return record;
    // Two workers may make one at once (one worker per tab where SharedWorker is missing): the
    // file's own `create` keeps the first.
    const made = this.file.create(newKeyFileBytes()).then(keyOfFile);
    this.known = made;
    made.catch(() => {
      this.known = null;
    });
    return made;
  }

  /** Shreds the key file (and the last design's key): what was sealed with it can no longer be read. */
  async destroy(): Promise<void> {
    this.shredded = true;
    this.forget();
    await Promise.all([this.file.shred(), this.deleteLegacy()]);
    this.forget();
  }

  /** A sign-in: the next write may make a key again. */
  allowNewKey(): void {
    this.shredded = false;
  }

  /**
   * Drops the copy held in memory (the key was shredded elsewhere), and every row opened with it;
   * the next read asks the file.
   */
  forget(): void {
    this.known = null;
    this.legacyKey = null;
    for (const listener of this.forgotten) listener();
  }

  /** What else must forget with the key: the rows each table keeps opened. */
  onForget(listener: () => void): void {
    this.forgotten.add(listener);
  }

  /** Whether the last design's key database still exists (its rows are then moved: `moveLegacyRows`). */
  async hasLegacy(): Promise<boolean> {
    return Dexie.exists(this.legacyName).catch(() => false);
  }

  async deleteLegacy(): Promise<void> {
    this.legacyKey = null;
    if (!(await this.hasLegacy())) return;
    await Dexie.ignoreTransaction(() => Dexie.delete(this.legacyName));
  }

  private load(): Promise<KeyRecord | undefined> {
    this.known ??= this.file
      .read()
      .then((bytes) => (bytes ? keyOfFile(bytes) : undefined))
      .catch((error: unknown) => {
        console.warn('At-rest key not readable', error);
        this.known = null;
        return undefined;
      });
    return this.known;
  }

  private legacy(): Promise<KeyRecord | undefined> {
    this.legacyKey ??= Dexie.ignoreTransaction(async () => {
      if (!(await this.hasLegacy())) return undefined;
      const db = new LegacyKeyDb(this.legacyName, this.legacyOptions);
      try {
        return await db.keys.get('current');
      } finally {
        db.close();
      }
    }).catch(() => undefined);
    return this.legacyKey;
  }
}

/** A sealed row's envelope, or null for a row stored plain. */
function envelopeOf(stored: unknown): string | null | undefined {
  if (!stored || typeof stored !== 'object' || !(ENVELOPE in stored)) return null;
  const envelope = (stored as Record<string, unknown>)[ENVELOPE];
  return typeof envelope === 'string' ? envelope : undefined;
}

/** Seals and opens rows; a row sealed with a key that is gone opens as undefined. */
class Sealer {
  /** Rows opened lately, by key and iv, as JSON (each read parses its own copy). */
  private readonly opened = new Map<string, string>();
  /** Rows being opened now: a second read of one (a read ahead of a window, then the window's) waits for it. */
  private readonly opening = new Map<string, Promise<string | undefined>>();

  constructor(
    private readonly key: AtRestKey,
    private readonly plainFields: readonly string[],
  ) {
    key.onForget(() => this.opened.clear());
  }

  async sealMany(rows: readonly unknown[]): Promise<unknown[]> {
    if (!rows.some((row) => row && typeof row === 'object')) return [...rows];
    const { keyId, key } = await this.key.forWriting();
    const encoder = new TextEncoder();
    return Promise.all(
      rows.map(async (row) => {
        if (!row || typeof row !== 'object') return row;
        const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
        const data = encoder.encode(JSON.stringify(row));
        const cipher = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, data));
        const sealed: Record<string, unknown> = {
          [ENVELOPE]: keyId + toByteString(iv) + toByteString(cipher),
        };
        for (const field of this.plainFields) {
          if (field in row) sealed[field] = (row as Record<string, unknown>)[field];
        }
        return sealed;
      }),
    );
  }

  /**
   * Opens rows in one batch: the keys they name are looked up once each (one, as a rule), rows opened
   * before are parsed from memory, the rest decrypted side by side.
   */
  async openMany(stored: readonly unknown[]): Promise<unknown[]> {
    const envelopes = stored.map(envelopeOf);
    const keyIds = new Set<string>();
    for (const envelope of envelopes) if (envelope) keyIds.add(envelope.slice(0, KEY_ID_CHARS));
    if (keyIds.size === 0) return stored.map((row, i) => (envelopes[i] === undefined ? undefined : row));
    const keys = new Map<string, CryptoKey>();
    for (const keyId of keyIds) {
      const record = await this.key.current(keyId);
      if (record?.keyId === keyId) keys.set(keyId, record.key);
    }
    const json: Array<string | undefined> = new Array(stored.length);
    const decryptions: Promise<void>[] = [];
    const decoder = new TextDecoder();
    envelopes.forEach((envelope, i) => {
      if (!envelope) return;
      const key = keys.get(envelope.slice(0, KEY_ID_CHARS));
      if (!key) return;
      // A sealed row never changes (a rewrite seals it anew, with a new iv): what was opened once is
      // kept, so a live query that runs again does not decrypt every row again. Still under the
      // key: a row whose key is gone is not answered from here.
      const id = envelope.slice(0, KEY_ID_CHARS + IV_BYTES);
      const kept = this.opened.get(id);
      if (kept !== undefined) {
        json[i] = kept;
        return;
      }
      let pending = this.opening.get(id);
      if (!pending) {
        const iv = fromByteString(envelope, KEY_ID_CHARS, KEY_ID_CHARS + IV_BYTES);
        const cipher = fromByteString(envelope, KEY_ID_CHARS + IV_BYTES);
        pending = crypto.subtle.decrypt({ name: 'AES-GCM', iv }, key, cipher).then(
          (plain) => {
            const text = decoder.decode(plain);
            if (this.opened.size >= OPENED_KEPT) this.opened.delete(this.opened.keys().next().value!);
            this.opened.set(id, text);
            return text;
          },
          () => undefined,
        );
        const settled = pending;
        this.opening.set(id, settled);
        void settled.finally(() => this.opening.delete(id));
      }
      decryptions.push(
        pending.then((text) => {
          json[i] = text;
        }),
      );
    });
    await Promise.all(decryptions);
    return stored.map((row, i) => {
      if (envelopes[i] === null) return row;
      const text = json[i];
      return text === undefined ? undefined : (JSON.parse(text) as unknown);
    });
  }

  async open(stored: unknown): Promise<unknown> {
    return (await this.openMany([stored]))[0];
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
    whileAlive(trans, name, sealer.openMany(rows));
  return {
    ...table,
    mutate: (req) =>
      req.type === 'add' || req.type === 'put'
        ? whileAlive(req.trans, name, sealer.sealMany(req.values)).then((values) =>
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
