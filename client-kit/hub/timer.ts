/**
 * The one timer function the hub needs, injected so tests (and the worker's clock) decide when a
 * wait ends. The worker's `Clock` is one.
 */
export interface Timer {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemTimer: Timer = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export const wait = (timer: Timer, ms: number) =>
  new Promise<void>((resolve) => {
    timer.setTimeout(resolve, ms);
  });

/** `work`, or `ms` if it takes longer; the wait's timer is cleared when `work` wins. */
export async function atMost(timer: Timer, ms: number, work: Promise<unknown>): Promise<void> {
  let handle: unknown = null;
  const waited = new Promise<void>((resolve) => {
    handle = timer.setTimeout(resolve, ms);
  });
  try {
    await Promise.race([work.then(() => undefined), waited]);
  } finally {
    timer.clearTimeout(handle);
  }
}
