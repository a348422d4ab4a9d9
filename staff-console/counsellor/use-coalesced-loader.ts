import { useCallback, useEffect, useRef } from 'react';

/**
 * Runs `load` now, or - when a run is under way - once more right after it, however many times it
 * was asked meanwhile: a burst of hub events costs at most two requests, and the last one sees the
 * newest state.
 */
export function useCoalescedLoader(load: () => Promise<void>): () => void {
  const latest = useRef(load);
  const running = useRef(false);
  const again = useRef(false);
  useEffect(() => {
    latest.current = load;
  });
  return useCallback(() => {
    if (running.current) {
      again.current = true;
      return;
    }
    running.current = true;
    const run = (): Promise<void> =>
      latest.current().finally(() => {
        if (again.current) {
          again.current = false;
          return run();
        }
        running.current = false;
      });
    void run();
  }, []);
}
