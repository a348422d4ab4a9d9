import { liveQuery } from 'dexie';
import type { Clock } from '../../worker/clock.ts';
import type { ErrorCode, Result } from '../../worker/client/result.ts';

interface Timer {
  id: number;
  at: number;
  fn: () => void;
}

/** A clock the test moves by hand: timers run in time order when `advance` passes them. */
export class ManualClock implements Clock {
  private time: number;
  private nextId = 1;
  private timers: Timer[] = [];

  constructor(start = Date.now()) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const timer = { id: this.nextId++, at: this.time + Math.max(0, ms), fn };
    this.timers.push(timer);
    return timer.id;
  }

  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }

  /** When the earliest pending timer is due, or null. */
  nextAt(): number | null {
    return this.timers.reduce<number | null>((min, t) => (min === null || t.at < min ? t.at : min), null);
  }

  /** When each pending timer is due, earliest first. */
  dueTimes(): number[] {
    return this.timers.map((t) => t.at).sort((a, b) => a - b);
  }

  pending(): number {
    return this.timers.length;
  }

  advance(ms: number): void {
    const target = this.time + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.time = due.at;
      due.fn();
    }
    this.time = target;
  }
}

/** Resolves with the query's result once it satisfies `predicate`: Dexie tells us, no polling. */
export function waitForQuery<T>(
  query: () => Promise<T>,
  predicate: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timeout = setTimeout(() => {
      subscription.unsubscribe();
      reject(new Error('waitForQuery timed out'));
    }, timeoutMs);
    const subscription = liveQuery(query).subscribe({
      next: (value) => {
        if (!predicate(value)) return;
        clearTimeout(timeout);
        queueMicrotask(() => subscription.unsubscribe());
        resolve(value);
      },
      error: (error: unknown) => {
        clearTimeout(timeout);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    });
  });
}

let counter = 0;
/** A database name of its own for every test, so fake-indexeddb state never leaks between tests. */
export const uniqueName = (prefix: string) => `${prefix}-${process.pid}-${++counter}-${Date.now()}`;

/** The value of a command's result; fails the test with the code when there is none. */
export function valueOf<T>(result: Result<T, ErrorCode>): T {
  if (!result.ok) throw new Error(`The command failed: ${result.code}`);
  return result.value;
}
