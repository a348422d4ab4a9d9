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

/**
 * Runs `run` every `ms` on `clock` (and once at once when `now`) until the answered stop is called:
 * the worker's one repeating timer. The next run is planned when one starts, so a slow request never
 * stacks runs; a failing run waits for the next.
 */
export function repeat(
  clock: Clock,
  ms: number,
  run: () => Promise<unknown>,
  { now = false }: { now?: boolean } = {},
): () => void {
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    handle = clock.setTimeout(tick, ms);
    void run().catch(() => undefined);
  };
  let handle = clock.setTimeout(tick, ms);
  if (now) void run().catch(() => undefined);
  return () => {
    stopped = true;
    clock.clearTimeout(handle);
  };
}

/**
 * The repeating timers of a session's modules (SyncContext.repeat). A module stops each when what
 * it serves closes (a chat, a meeting); the core stops every one still running when the session
 * ends, so a timer a command started cannot outlive its user, whatever the module forgot.
 */
export class SessionTimers {
  private readonly stops = new Set<() => void>();

  constructor(private readonly clock: Clock) {}

  repeat(ms: number, run: () => Promise<unknown>, options: { now?: boolean } = {}): () => void {
    const stopTimer = repeat(this.clock, ms, run, options);
    const stop = () => {
      this.stops.delete(stop);
      stopTimer();
    };
    this.stops.add(stop);
    return stop;
  }

  /** The session ended: stops every timer still running, and answers how many there were. */
  end(): number {
    const left = this.stops.size;
    for (const stop of [...this.stops]) stop();
    return left;
  }
}

/** Runs `fn` holding a cross-context lock (Web Locks in browsers); without Web Locks it just runs. */
export type WithLock = <T>(name: string, fn: () => Promise<T>) => Promise<T>;

export const noLock: WithLock = (_name, fn) => fn();
