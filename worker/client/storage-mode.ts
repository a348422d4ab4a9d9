/**
 * Where this browser keeps a session: on disk (the normal mode: the installed app reads past chats
 * offline), or in memory only (shared-device mode: nothing of the session is written to disk, and
 * it ends when the last tab closes).
 */
export type StorageMode = 'disk' | 'memory';

/**
 * The one thing kept on disk about shared-device mode, and nothing personal: that a session in
 * memory may be running, so a new tab joins it instead of showing the disk's signed-out state.
 */
const SHARED_DEVICE_KEY = 'portal-shared-device';

export function storedMode(): StorageMode {
  try {
    return localStorage.getItem(SHARED_DEVICE_KEY) === '1' ? 'memory' : 'disk';
  } catch {
    return 'disk';
  }
}

export function rememberMode(mode: StorageMode) {
  try {
    if (mode === 'memory') localStorage.setItem(SHARED_DEVICE_KEY, '1');
    else localStorage.removeItem(SHARED_DEVICE_KEY);
  } catch {
    // Storage refused (a private window's quota): new tabs start on disk, signed out. Safe.
  }
}
