import { useEffect, useRef, useState } from 'react';

/**
 * Runs `load` now, or - when a run is under way - once more right after it, however many times it
 * was asked meanwhile: a burst of hub events costs at most two requests, and the last one sees the
 * newest state.
 */
export function coalesced(load: () => Promise<void>): () => void {
  let running = false;
  let again = false;
  const run = (): Promise<void> =>
    load()
      .catch((error: unknown) => console.warn('staff console: a load failed', error))
      .finally(() => {
        if (again) {
          again = false;
          return run();
        }
        running = false;
      });
  return () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    void run();
  };
}

/** `coalesced` for a component: a stable function that always runs the component's newest `load`. */
export function useCoalescedLoader(load: () => Promise<void>): () => void {
  const latest = useRef(load);
  useEffect(() => {
    latest.current = load;
  });
  const [reload] = useState(() => coalesced(() => latest.current()));
  return reload;
}
