/**
 * The JS a first visit's page requests before the logged-out start page is drawn ('Logga in'
 * visible), measured in Debian Chromium against a production server of a built client: every
 * script the page itself asked for (its module scripts, modulepreloads and dynamic imports) whose
 * request started before that moment, with its gzip size from the build. The data worker and the
 * service worker are apart (the budget is the page's). Used by the size budget
 * (tests/pwa/size-budget.test.ts) and `npm run bench:critical`.
 */
import os from 'node:os';
import path from 'node:path';
import type { Browser, Request } from '@playwright/test';
import { PRODUCTION_ENV, startServerProcess } from './server-process.ts';
import { sized, type Sizes } from '../scripts/critical-path.ts';

/** The budget: gzip bytes of JS before the logged-out start page is drawn, React included. */
export const START_PAGE_JS_GZIP_BUDGET = 110 * 1024;

export interface StartPageJs {
  /** The scripts requested before 'Logga in' was visible, with their sizes. */
  js: Sizes;
  /** Milliseconds from navigation to 'Logga in' visible (on this host, unthrottled: for the record). */
  drawnAtMs: number;
}

interface PageReport {
  drawnAt: number;
  /** When the page's first idle callback ran; what it requested from then on is background work. */
  idleAt: number | null;
  scripts: { name: string; startTime: number }[];
}

const WORKER_BINDING = '__startPageWorkerScript';

/**
 * In the page, from its first script on: the moment a 'Logga in' button is first visible, and the
 * script address of every worker the page starts (reported to the binding): a worker's script is the
 * worker's, not the page's, and its request never gets an answer the page would see. Plain script
 * text: a function of this module would carry the helpers tsx adds to named functions, which the
 * page lacks.
 */
const WATCH_FOR_LOGIN = `(() => {
  for (const name of ['SharedWorker', 'Worker']) {
    const Original = window[name];
    if (!Original) continue;
    const Watched = function (url, options) {
      window.${WORKER_BINDING}(String(url));
      return new Original(url, options);
    };
    Watched.prototype = Original.prototype;
    window[name] = Watched;
  }
  // Background work the page starts once it is idle (the data layer, pages preloaded for later) is
  // by design not what draws it: on a busy host an idle callback can come before the frame that
  // shows 'Logga in', and what it requests is not counted. A static import loads before any script
  // runs, so it is requested before the first idle callback whatever the timing.
  const idle = window.requestIdleCallback;
  if (idle) {
    window.requestIdleCallback = (callback, options) =>
      idle((deadline) => {
        if (window.__firstIdleAt === undefined) window.__firstIdleAt = performance.now();
        return callback(deadline);
      }, options);
  }
  const frame = () => {
    const drawn = [...document.querySelectorAll('button')].some(
      (b) => b.textContent.trim() === 'Logga in' && b.getBoundingClientRect().height > 0,
    );
    if (drawn) window.__loginDrawnAt = performance.now();
    else requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();`;

/**
 * Opens `url` in a new context (a first visit: no cache, no service worker) and answers the scripts
 * the page requested before 'Logga in' was visible, as paths of the site (`/assets/x.js`).
 */
export async function scriptsBeforeLogin(browser: Browser, url: string): Promise<PageReport> {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  try {
    const page = await context.newPage();
    // The page's scripts under way (a resource timing entry exists only once a response is in),
    // less the workers' own scripts.
    const inFlight = new Set<Request>();
    const workerScripts = new Set<string>();
    let drawn = false;
    let settled: () => void = () => undefined;
    const check = () => {
      if (drawn && [...inFlight].every((r) => workerScripts.has(r.url()))) settled();
    };
    const done = (request: Request) => {
      inFlight.delete(request);
      check();
    };
    await context.exposeBinding(WORKER_BINDING, (_source, script: string) => {
      workerScripts.add(new URL(script, url).href);
      check();
    });
    page.on('request', (request) => {
      if (request.resourceType() === 'script') inFlight.add(request);
    });
    page.on('requestfinished', done);
    page.on('requestfailed', done);
    await page.addInitScript({ content: WATCH_FOR_LOGIN });
    await page.goto(url);
    await page.waitForFunction(() => (window as { __loginDrawnAt?: number }).__loginDrawnAt !== undefined);
    // What was requested by then has come in, so that its timing entry exists.
    await new Promise<void>((resolve) => {
      settled = resolve;
      drawn = true;
      check();
    });
    return await page.evaluate(() => {
      const marks = window as unknown as { __loginDrawnAt: number; __firstIdleAt?: number };
      const drawnAt = marks.__loginDrawnAt;
      const idleAt = marks.__firstIdleAt ?? null;
      const scripts = performance
        .getEntriesByType('resource')
        .filter((e) => new URL(e.name).pathname.endsWith('.js'))
        .map((e) => ({ name: new URL(e.name).pathname, startTime: e.startTime }));
      return { drawnAt, idleAt, scripts };
    });
  } finally {
    await context.close();
  }
}

/** Serves `distDir` with a production server and measures its logged-out start page. */
export async function measureStartPageJs(
  browser: Browser,
  distDir: string,
  env: Record<string, string> = {},
): Promise<StartPageJs> {
  const server = await startServerProcess({
    ...PRODUCTION_ENV,
    DEMO_SEED: '1',
    CLIENT_DIR: distDir,
    DATABASE_URL: path.join(os.tmpdir(), `start-page-${process.pid}-${Date.now()}.db`),
    ...env,
  });
  try {
    const report = await scriptsBeforeLogin(browser, `${server.url}/`);
    const files = report.scripts
      .filter((s) => s.startTime <= Math.min(report.drawnAt, report.idleAt ?? Infinity))
      .map((s) => s.name.replace(/^\//, ''));
    return { js: await sized(distDir, [...new Set(files)]), drawnAtMs: Math.round(report.drawnAt) };
  } finally {
    await server.stop();
  }
}
