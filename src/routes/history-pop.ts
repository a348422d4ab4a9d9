/**
 * Whether the latest navigation came from the browser's back or forward buttons. The listener is
 * added when this module loads, before wouter subscribes: React may render the popped page in a
 * microtask between two popstate listeners, so a listener added later would be too late.
 */
let popped = false;

// Not in the build's prerender of the first screen (src/prerender.tsx), which runs without a window.
if (typeof window !== 'undefined') {
  window.addEventListener('popstate', () => {
    popped = true;
  });
}

/** Reads and clears the flag, once per navigation. */
export function takePopped(): boolean {
  const value = popped;
  popped = false;
  return value;
}
