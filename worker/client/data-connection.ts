import { connectMemoryWorker, connectWorker, type WorkerConnection } from './connect.ts';
import { finishPendingExit, pendingExit } from './quick-exit.ts';
import { rememberMode, storedMode, type StorageMode } from './storage-mode.ts';

export type { StorageMode } from './storage-mode.ts';

/** Tells the other tabs which mode a sign-in chose, so they follow it. */
const MODE_CHANNEL = 'portal-storage-mode';

/**
 * The tab's connection to the data worker of the current mode. A sign-in chooses the mode
 * (`choose`), and every other tab follows; a tab opened while a shared-device session runs joins it.
 * While it is joining, `current()` is null (the app shows its neutral first screen rather than the
 * disk's state).
 */
export class DataConnection {
  private readonly opened: Partial<Record<StorageMode, Promise<WorkerConnection>>> = {};
  private active: WorkerConnection | null = null;
  private mode: StorageMode;
  private readonly listeners = new Set<() => void>();
  private readonly modes = new BroadcastChannel(MODE_CHANNEL);

  constructor() {
    this.mode = storedMode();
    if (this.mode === 'disk' && pendingExit()) {
      // A quick exit the server has not answered yet: it is finished before the worker starts, so
      // that nothing of that session signs in again (worker/client/quick-exit.ts).
      void finishPendingExit()
        .catch((error: unknown) => console.error('Quick exit not finished', error))
        .then(() => this.switchTo('disk'));
    } else if (this.mode === 'disk') {
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

  /** The connection of the current mode, once there is one (a tab joining shared-device mode waits). */
  whenCurrent(): Promise<WorkerConnection> {
    if (this.active) return Promise.resolve(this.active);
    return new Promise((resolve) => {
      const stop = this.subscribe(() => {
        if (!this.active) return;
        stop();
        resolve(this.active);
      });
    });
  }

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
