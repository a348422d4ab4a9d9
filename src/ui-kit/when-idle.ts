/**
 * Runs `task` once the page is idle after its next frame is painted (a timeout where
 * requestIdleCallback is missing); returns a cancel. After a paint: on a first visit the main thread
 * idles while the first screen's data is read, and background work started then would compete with
 * that screen's.
 */
export function whenIdle(task: () => void, fallbackMs = 1000): () => void {
  if (typeof window.requestIdleCallback !== 'function') {
    const id = window.setTimeout(task, fallbackMs);
    return () => window.clearTimeout(id);
  }
  let idle: number | undefined;
  const frame = window.requestAnimationFrame(() => {
    idle = window.requestIdleCallback(task, { timeout: 5000 });
  });
  return () => {
    window.cancelAnimationFrame(frame);
    if (idle !== undefined) window.cancelIdleCallback(idle);
  };
}
