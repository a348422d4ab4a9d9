import { liveQuery } from 'dexie';
import { ANTI_FORGERY_COOKIE, ANTI_FORGERY_HEADER, ANTI_FORGERY_PATH } from '../../contract/anti-forgery.ts';
import { VARIANT_HEADER } from '../../contract/variant.ts';
import type { Clock } from '../../worker/clock.ts';
import type { ErrorCode, Result } from '../../worker/base/result.ts';

interface Timer {
  id: number;
  at: number;
  fn: () => void;
  /** Where in the worker the timer was set (file and line), to name it when it should not be there. */
  setBy: string;
}

/**
 * The first frame of the stack in the worker's own code, past its clock helpers (`repeat` and the
 * like): which module set a timer.
 */
function workerFrame(stack: string | undefined): string {
  for (const line of stack?.split('\n') ?? []) {
    const where = /(?<![\\/]tests)[\\/](worker[\\/][^:)]+):(\d+)/.exec(line);
    if (where && !where[1]!.endsWith('clock.ts')) return `${where[1]}:${where[2]}`;
  }
  return 'outside worker/';
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
    const timer = {
      id: this.nextId++,
      at: this.time + Math.max(0, ms),
      fn,
      setBy: workerFrame(new Error().stack),
    };
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

  /** Where each pending timer was set ('worker/sync/diary.ts:42'), in the order they were set. */
  pendingSetBy(): string[] {
    return this.timers.map((t) => t.setBy);
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

/**
 * fetch as a browser does it for this site: the cookies it keeps go with every call, and a
 * Set-Cookie answer is kept. (Node's fetch keeps no cookies; a browser's worker does.)
 */
export function browserFetch(siteUrl: string) {
  const jar = new Map<string, string>([['web_assistant-state', 'Inactive']]);
  const sent: Array<{ method: string; url: string; header: string | null }> = [];
  /** While set, the anti-forgery value cannot be had (a deploy, a blip). */
  const down = { antiForgery: false };
  const fetchFn: typeof fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (down.antiForgery && url.endsWith(ANTI_FORGERY_PATH)) return new Response('', { status: 503 });
    const headers = new Headers(init?.headers);
    headers.set('Cookie', [...jar].map(([name, value]) => `${name}=${value}`).join('; '));
    sent.push({ method: init?.method ?? 'GET', url, header: headers.get(ANTI_FORGERY_HEADER) });
    const response = await fetch(input, { ...init, headers });
    const [pair] = (response.headers.get('set-cookie') ?? '').split(';');
    const at = pair!.indexOf('=');
    if (at > 0) jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    return response;
  };
  /** Another tab cleared the cookies and the page got a new anti-forgery value since. */
  const replaceAntiForgeryCookie = async () => {
    jar.delete(ANTI_FORGERY_COOKIE);
    await fetchFn(`${siteUrl}/portal${ANTI_FORGERY_PATH}`, { headers: { [VARIANT_HEADER]: 'Barn' } });
  };
  return { jar, sent, fetchFn, down, replaceAntiForgeryCookie };
}
