import { connectMemoryWorker, connectWorker, type WorkerConnection } from './connect.ts';

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
/** Tells the other tabs which mode a sign-in chose, so they follow it. */
const MODE_CHANNEL = 'portal-storage-mode';

function storedMode(): StorageMode {
  try {
    return localStorage.getItem(SHARED_DEVICE_KEY) === '1' ? 'memory' : 'disk';
  } catch {
    return 'disk';
  }
}

function rememberMode(mode: StorageMode) {
  try {
    if (mode === 'memory') localStorage.setItem(SHARED_DEVICE_KEY, '1');
    else localStorage.removeItem(SHARED_DEVICE_KEY);
  } catch {
    // Storage refused (a private window's quota): new tabs start on disk, signed out. Safe.
  }
}

/**
 * The tab's connection to the data worker of the current mode. A sign-in chooses the mode
 * (`choose`), and every other tab follows; a tab opened while a shared-device session runs joins it.
 * While it is joining, `current()` is null (the app renders nothing rather than the disk's state).
 */
export class DataConnection {
  private readonly opened: Partial<Record<StorageMode, Promise<WorkerConnection>>> = {};
  private active: WorkerConnection | null = null;
  private mode: StorageMode;
  private readonly listeners = new Set<() => void>();
  private readonly modes = new BroadcastChannel(MODE_CHANNEL);

  constructor() {
    this.mode = storedMode();
    if (this.mode === 'disk') {
      const disk = connectWorker();
      this.opened.disk = Promise.resolve(disk);
      this.active = disk;
    } else {
      void this.join();
    }
    this.modes.addEventListener('message', (event: MessageEvent<StorageMode>) => {
      void this.switchTo(event.data).catch((error: unknown) =>
        console.error('Storage mode switch failed', error),
      );
    });
  }

  readonly current = (): WorkerConnection | null => this.active;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** A sign-in's choice: this tab and every other one use `mode` from now on. */
  async choose(mode: StorageMode): Promise<WorkerConnection> {
    rememberMode(mode);
    const connection = await this.switchTo(mode);
    this.modes.postMessage(mode);
    return connection;
  }

  /** A tab opened with shared-device mode on: join that session, or find it over. */
  private async join(): Promise<void> {
    try {
      const memory = await this.switchTo('memory');
      if ((await memory.db.session.get('current'))?.status === 'authenticated') return;
    } catch (error) {
      console.warn('No shared-device session to join', error);
    }
    // Every tab of that session closed (its memory went with them): start afresh, signed out.
    rememberMode('disk');
    await this.switchTo('disk');
  }

  private async switchTo(mode: StorageMode): Promise<WorkerConnection> {
    this.mode = mode;
    const opening = (this.opened[mode] ??=
      mode === 'disk' ? Promise.resolve(connectWorker()) : connectMemoryWorker());
    try {
      const connection = await opening;
      if (this.mode === mode && this.active !== connection) {
        this.active = connection;
        for (const listener of this.listeners) listener();
      }
      return connection;
    } catch (error) {
      delete this.opened[mode];
      throw error;
    }
  }
}
