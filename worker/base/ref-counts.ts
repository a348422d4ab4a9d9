/**
 * Opens and closes counted per key: the one place the worker counts who holds what (a group chat
 * or a mail thread opened in several tabs, a tab's entity subscriptions). The first `add` of a key
 * is the one that starts something, the last `remove` the one that stops it.
 */
export class RefCounts<K> {
  private readonly counts = new Map<K, number>();

  /** Counts one more hold; true when it is the first. */
  add(key: K): boolean {
    const count = this.counts.get(key) ?? 0;
    this.counts.set(key, count + 1);
    return count === 0;
  }

  /** Counts one hold less; true when it was the last, false when others still hold the key or none did. */
  remove(key: K): boolean {
    const count = this.counts.get(key) ?? 0;
    if (count === 0) return false;
    if (count === 1) this.counts.delete(key);
    else this.counts.set(key, count - 1);
    return count === 1;
  }

  /** Forgets every hold of the key at once; answers how many there were. */
  drop(key: K): number {
    const count = this.counts.get(key) ?? 0;
    this.counts.delete(key);
    return count;
  }

  has(key: K): boolean {
    return this.counts.has(key);
  }

  count(key: K): number {
    return this.counts.get(key) ?? 0;
  }

  keys(): K[] {
    return [...this.counts.keys()];
  }

  clear(): void {
    this.counts.clear();
  }
}
