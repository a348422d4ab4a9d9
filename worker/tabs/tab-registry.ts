import { LOCKS } from '../base/web-locks.ts';
import { RefCounts } from '../base/ref-counts.ts';

/**
 * The tabs a SharedWorker serves and what each holds open: its group chats, mail threads and entity
 * subscriptions, counted per tab. A tab counts as gone once its `portal-tab-*` lock is free, because
 * a closed tab fires no port `close` event; then each hold it left is released for it (else Ping
 * would run on and the chat would never Disconnect).
 */
export class TabRegistry {
  private readonly tabs = new Map<string, RefCounts<string>>();

  constructor(
    /** Called once for each hold a gone tab left (a key held twice: twice). */
    private readonly released: (key: string) => void,
    /** Resolves when the tab's lock can be taken, i.e. the tab is closed. */
    private readonly whenGone: (tabId: string) => Promise<void>,
    /** Called once a tab is gone, after its holds were released. */
    private readonly gone: (tabId: string) => void = () => undefined,
  ) {}

  get size(): number {
    return this.tabs.size;
  }

  has(tabId: string): boolean {
    return this.tabs.has(tabId);
  }

  add(tabId: string): void {
    if (this.tabs.has(tabId)) return;
    this.tabs.set(tabId, new RefCounts());
    void this.whenGone(tabId).then(() => this.remove(tabId));
  }

  /** Counts one more hold of `key` by the tab. */
  hold(tabId: string, key: string): void {
    this.tabs.get(tabId)?.add(key);
  }

  /** Counts a release; false when the tab held no such key (nothing to close). */
  release(tabId: string, key: string): boolean {
    const holds = this.tabs.get(tabId);
    if (!holds?.has(key)) return false;
    holds.remove(key);
    return true;
  }

  /** Whether any open tab still holds `key`. */
  isHeld(key: string): boolean {
    for (const holds of this.tabs.values()) if (holds.has(key)) return true;
    return false;
  }

  remove(tabId: string): void {
    const holds = this.tabs.get(tabId);
    if (!holds) return;
    this.tabs.delete(tabId);
    for (const key of holds.keys()) for (let n = holds.drop(key); n > 0; n--) this.released(key);
    this.gone(tabId);
  }
}

/** Browser glue: the tab's lock is granted to us only after the tab released it by closing. */
export function tabLockReleased(locks: LockManager, tabId: string): Promise<void> {
  return locks.request(LOCKS.tab(tabId), { mode: 'shared' }, () => undefined).then(() => undefined);
}
