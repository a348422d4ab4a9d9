import { LOCKS, webLocks } from './web-locks.ts';

/**
 * Where the at-rest key lives (docs/decisions.md, "The at-rest key is a file, overwritten in place"):
 * a file of its own in the origin private file system, never IndexedDB. A key in IndexedDB is
 * written into the origin's LevelDB files, and deleting it leaves its bytes there until the browser
 * compacts them; a file can be overwritten where it lies and flushed before it is removed (with a
 * sync access handle, which only a dedicated worker has: `worker/key-file/`), so once a sign-out or
 * a quick exit has shredded it, nothing on the device opens what was sealed with it.
 *
 * The file holds KEY_ID_CHARS of key id (ASCII) and then the raw AES-256 key.
 */
export const KEY_FILE_NAME = 'portal-at-rest-key';
/** Names the key in each sealed row's envelope, so a row sealed with a shredded key is known as such. */
export const KEY_ID_CHARS = 8;
export const KEY_BYTES = 32;
export const KEY_FILE_BYTES = KEY_ID_CHARS + KEY_BYTES;

/**
 * The at-rest key of the last design: a non-extractable CryptoKey in this IndexedDB database. Read
 * only to move rows sealed with it under the file's key (at-rest.ts), then deleted.
 */
export const LEGACY_KEY_DB = 'portal-key';

/** The key file as one context may use it. */
export interface KeyFile {
  /** The file's bytes, or null when there is no key (none made, or shredded). */
  read(): Promise<Uint8Array | null>;
  /** Stores `bytes` as the key unless there is one already; answers the key the file holds then. */
  create(bytes: Uint8Array): Promise<Uint8Array>;
  /** Overwrites the key where it lies, flushed, and removes it (see each context's implementation). */
  shred(): Promise<void>;
}

/** What a tab asks its shredder (worker/key-file/shredder-entry.ts), and its answer. */
export interface ShredRequest {
  id: number;
}
export interface ShredAnswer {
  id: number;
  ok: boolean;
}

/** The origin private file system's root, or null where the browser has none (or refuses it). */
export async function privateRoot(): Promise<FileSystemDirectoryHandle | null> {
  const storage = (globalThis as { navigator?: { storage?: StorageManager } }).navigator?.storage;
  if (typeof storage?.getDirectory !== 'function') return null;
  try {
    return await storage.getDirectory();
  } catch {
    return null;
  }
}

const isNotFound = (error: unknown) => (error as { name?: unknown } | null)?.name === 'NotFoundError';

/** The key file's bytes in `root`; null without a whole key (none, or one truncated by a shred). */
export async function readKeyFile(root: FileSystemDirectoryHandle): Promise<Uint8Array | null> {
  try {
    const file = await (await root.getFileHandle(KEY_FILE_NAME)).getFile();
    const bytes = new Uint8Array(await file.arrayBuffer());
    return bytes.length === KEY_FILE_BYTES ? bytes : null;
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/** Removes the key file, where it is (no overwrite: the fallback where no context can shred in place). */
export async function removeKeyFile(root: FileSystemDirectoryHandle): Promise<void> {
  try {
    await root.removeEntry(KEY_FILE_NAME);
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}

/**
 * The key file in the origin private file system. `shred` is the context's own: in place where it
 * can (a dedicated worker), else by asking a context that can. Creating holds a Web Lock, so two
 * workers (one per tab where SharedWorker is missing) never store two keys.
 */
export function privateKeyFile(shred: (root: FileSystemDirectoryHandle) => Promise<void>): KeyFile {
  const root = () =>
    privateRoot().then((found) => {
      if (!found) throw new Error('No origin private file system for the at-rest key');
      return found;
    });
  const locks = webLocks();
  return {
    read: async () => readKeyFile(await root()),
    create: async (bytes) => {
      const dir = await root();
      const write = async () => {
        const existing = await readKeyFile(dir);
        if (existing) return existing;
        // A new file, written whole (a writable stream replaces it at close), so no reader ever
        // sees half a key.
        const writable = await (await dir.getFileHandle(KEY_FILE_NAME, { create: true })).createWritable();
        await writable.write(bytes as Uint8Array<ArrayBuffer>);
        await writable.close();
        return bytes;
      };
      return locks ? ((await locks.request(LOCKS.atRestKey, write)) as Uint8Array) : write();
    },
    shred: async () => shred(await root()),
  };
}
