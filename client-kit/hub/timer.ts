/**
 * The one timer function the hub needs, injected so tests (and the worker's clock) decide when a
 * wait ends. The worker's `Clock` is one.
 */
export interface Timer {
  setTimeout(fn: () => void, ms: number): unknown;
}

export const systemTimer: Timer = { setTimeout: (fn, ms) => setTimeout(fn, ms) };

export const wait = (timer: Timer, ms: number) =>
  new Promise<void>((resolve) => {
    timer.setTimeout(resolve, ms);
  });
