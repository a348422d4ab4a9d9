/**
 * The tabs a SharedWorker serves and the entities each asked for. A hub subscription is dropped only
 * when no open tab wants it any more; a tab counts as gone once its `portal-tab-*` lock is free,
 * because a closed tab fires no port `close` event.
 */
export class TabRegistry {
  private readonly tabs = new Map<string, Set<string>>();

  constructor(
    private readonly unsubscribe: (entityKey: string) => void,
    /** Resolves when the tab's lock can be taken, i.e. the tab is closed. */
    private readonly whenGone: (tabId: string) => Promise<void>,
  ) {}

  get size(): number {
    return this.tabs.size;
  }

  has(tabId: string): boolean {
    return this.tabs.has(tabId);
  }

  add(tabId: string): void {
    if (this.tabs.has(tabId)) return;
    this.tabs.set(tabId, new Set());
    void this.whenGone(tabId).then(() => this.remove(tabId));
  }

  subscribed(tabId: string, entityKey: string): void {
    this.tabs.get(tabId)?.add(entityKey);
  }

  /** Returns true when the tab was the last one holding the entity (and it was unsubscribed). */
  unsubscribed(tabId: string, entityKey: string): boolean {
    this.tabs.get(tabId)?.delete(entityKey);
    if (this.isWanted(entityKey)) return false;
    this.unsubscribe(entityKey);
    return true;
  }

  remove(tabId: string): void {
    const keys = this.tabs.get(tabId);
    if (!keys) return;
    this.tabs.delete(tabId);
    for (const key of keys) if (!this.isWanted(key)) this.unsubscribe(key);
  }

  private isWanted(entityKey: string): boolean {
    for (const keys of this.tabs.values()) if (keys.has(entityKey)) return true;
    return false;
  }
}

/** Browser glue: the tab's lock is granted to us only after the tab released it by closing. */
export function tabLockReleased(tabId: string): Promise<void> {
  return navigator.locks
    .request(`portal-tab-${tabId}`, { mode: 'shared' }, () => undefined)
    .then(() => undefined);
}
