/**
 * Time as the worker's modules see it. Injected so tests drive timers (token refresh, outbox backoff,
 * client-log debounce) without sleeping.
 */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export const delay = (clock: Clock, ms: number) =>
  new Promise<void>((resolve) => {
    clock.setTimeout(resolve, ms);
  });

/** Runs `fn` holding a cross-context lock (Web Locks in browsers); without Web Locks it just runs. */
export type WithLock = <T>(name: string, fn: () => Promise<T>) => Promise<T>;

export const noLock: WithLock = (_name, fn) => fn();
