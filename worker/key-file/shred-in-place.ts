import { KEY_FILE_NAME, removeKeyFile } from '../base/at-rest-key.ts';
import { LOCKS, webLocks } from '../base/web-locks.ts';

/** How often, and how far apart, a shred asks again for a key file another context holds open. */
const BUSY_TRIES = 40;
const BUSY_WAIT_MS = 25;

const nameOf = (error: unknown) => (error as { name?: unknown } | null)?.name;

/** An exclusive handle on the file; a writer elsewhere (a key being made) holds it for a moment only. */
async function openExclusive(handle: FileSystemFileHandle): Promise<FileSystemSyncAccessHandle> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await handle.createSyncAccessHandle();
    } catch (error) {
      if (nameOf(error) !== 'NoModificationAllowedError' || attempt >= BUSY_TRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, BUSY_WAIT_MS));
    }
  }
}

/**
 * Shreds the at-rest key file (worker/base/at-rest-key.ts): its bytes are overwritten with random
 * ones where they lie, flushed to disk, the file truncated and then removed. A sync access handle
 * writes into the file itself (a writable stream would write a copy and swap it in, leaving the old
 * bytes in a freed file), and only a dedicated worker has one. Nothing to shred is success.
 */
export async function shredInPlace(root: FileSystemDirectoryHandle): Promise<void> {
  const shred = async () => {
    let handle: FileSystemFileHandle;
    try {
      handle = await root.getFileHandle(KEY_FILE_NAME);
    } catch (error) {
      if (nameOf(error) === 'NotFoundError') return;
      throw error;
    }
    const access = await openExclusive(handle);
    try {
      const size = access.getSize();
      if (size > 0) {
        access.write(crypto.getRandomValues(new Uint8Array(size)), { at: 0 });
        access.flush();
        access.truncate(0);
        access.flush();
      }
    } finally {
      access.close();
    }
    await removeKeyFile(root);
  };
  const locks = webLocks();
  await (locks ? locks.request(LOCKS.atRestKey, shred) : shred());
}

/** Whether this context can shred in place (a dedicated worker with the origin private file system). */
export function canShredInPlace(): boolean {
  const handle = (globalThis as { FileSystemFileHandle?: { prototype: object } }).FileSystemFileHandle;
  return !!handle && 'createSyncAccessHandle' in handle.prototype;
}
