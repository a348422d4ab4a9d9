import { Window } from 'happy-dom';
import { afterAll } from 'vitest';
import { populateGlobal } from 'vitest/runtime';

/**
 * A page for component tests that also run the real server and the real worker core in their own
 * process. Import it first, before React: it gives this Node process happy-dom's document, window and
 * DOM classes, and leaves fetch, URL, AbortController and the like Node's. (Vitest's happy-dom
 * environment swaps those for happy-dom's as well, and has every module transformed for the browser,
 * which turns the server's `new URL(..., import.meta.url)` into a page address.)
 */
const page = new Window({ url: 'http://localhost:3000', settings: { disableErrorCapturing: true } });
const { keys, originals } = populateGlobal(globalThis, page, { bindFunctions: true });

// As in a browser, a request to a path goes to the page's own origin (Node's fetch refuses it).
const nodeFetch = globalThis.fetch;
globalThis.fetch = (input, init) =>
  nodeFetch(
    typeof input === 'string' && input.startsWith('/') ? new URL(input, page.location.href) : input,
    init,
  );

/**
 * Lets React's scheduler run what a test's last commit queued. React schedules the flush of passive
 * effects (an unmount's too) as a task on the next macrotask turn, and that task reads `window`: run
 * after the page's globals are gone, it throws outside any test. In Node the scheduler queues its
 * turns with setImmediate, so a few turns of our own come after everything it had queued.
 */
async function reactSettled(turns = 5) {
  for (let turn = 0; turn < turns; turn += 1) await new Promise((resolve) => setImmediate(resolve));
}

afterAll(async () => {
  await reactSettled();
  await page.happyDOM.abort();
  page.close();
  const global = globalThis as Record<string | symbol, unknown>;
  keys.forEach((key) => delete global[key]);
  originals.forEach((value, key) => (global[key] = value));
  globalThis.fetch = nodeFetch;
});

/** Moves the page to `url`, so that its relative requests (the app's /config.json) go there. */
export function setPageUrl(url: string) {
  page.happyDOM.setURL(url);
}
