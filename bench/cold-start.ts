/**
 * Cold start from cache (npm run bench:coldstart, after `npm run build`): the installed app opened
 * offline, in Debian Chromium, against a production server of the built client.
 *
 * 1. The demo child is in a live chat of BENCH_CHAT_MESSAGES (default 2,000) messages (the ones
 *    between written to the database, tests/server/long-chat.ts), loaded into the app's database
 *    online, with the service worker installed.
 * 2. Offline, the app is opened again: navigation to first paint and to the start page's chat
 *    button; the worker's first answer (the 'portal:worker-ready' mark); and, the chat opened the
 *    moment its button shows, the chat's newest message on screen, from the worker being ready and
 *    from the click.
 * 3. The chat is ended and made BENCH_HISTORY_MESSAGES (default 10,000) long; opened from the chat
 *    history on my pages, it is scrolled from its newest message to its first, a screen per
 *    animation frame, with the long tasks (over 50 ms) of the performance timeline counted.
 *
 * Every figure is the median of BENCH_RUNS (default 5) offline openings.
 */
import type { BrowserContext, Page } from '@playwright/test';
import { api, login } from '../tests/server/test-server.ts';
import { appendCounsellorMessages } from '../tests/server/long-chat.ts';
import {
  demoChildInLiveChat,
  launchChromium,
  percentile,
  printReport,
  runBench,
  startBenchServer,
} from './support.ts';
import { PRODUCTION_ENV } from '../tests/server/server-process.ts';

const CHAT_MESSAGES = Number(process.env.BENCH_CHAT_MESSAGES ?? 2000);
const HISTORY_MESSAGES = Number(process.env.BENCH_HISTORY_MESSAGES ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/** BENCH_PROFILE=1: a CPU profile of the page's main thread in each opening, its top functions printed. */
const PROFILE = process.env.BENCH_PROFILE === '1';
const NEWEST = 'Det senaste meddelandet';
const HISTORY_NEWEST = 'Det sista meddelandet i historiken';

/** Rows of the chat messages table in the page's IndexedDB (the cache the app reads offline). */
const cachedMessages = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('portal-data');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const count = open.result.transaction('chatMessages').objectStore('chatMessages').count();
          count.onsuccess = () => {
            resolve(count.result);
            open.result.close();
          };
          count.onerror = () => reject(count.error);
        };
      }),
  );

/** Waits until the page's cache holds at least `count` chat messages (the worker's fetch wrote them). */
async function untilCached(page: Page, count: number) {
  for (let i = 0; i < 600 && (await cachedMessages(page)) < count; i++) await page.waitForTimeout(100);
  const cached = await cachedMessages(page);
  if (cached < count) {
    console.error(page.url(), await page.evaluate(() => document.body.innerText.slice(0, 600)));
    throw new Error(`only ${cached} of ${count} messages reached the cache`);
  }
}

interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
  samples?: number[];
  timeDeltas?: number[];
}

/** A profile's functions by self time (ms), the most first: where the main thread spent the opening. */
function topFunctions(profile: CpuProfile, count = 12): Array<[string, number]> {
  const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const selfUs = new Map<string, number>();
  (profile.samples ?? []).forEach((nodeId, i) => {
    const frame = frames.get(nodeId);
    // Idle is no work: only what kept the main thread busy is ranked.
    if (!frame || frame.functionName === '(idle)') return;
    const file = frame.url.split('/').pop() || '(native)';
    const name = `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`;
    selfUs.set(name, (selfUs.get(name) ?? 0) + (profile.timeDeltas?.[i] ?? 0));
  });
  return [...selfUs]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, us]) => [name, Math.round(us / 100) / 10]);
}

interface Opening {
  navToFcpMs: number;
  navToFirstScreenMs: number;
  navToWorkerReadyMs: number;
  workerReadyToChatMs: number;
  clickToChatMs: number;
  profileTop?: Array<[string, number]>;
}

/**
 * Opens the app offline in a new tab and, in the page itself (no round trip to this process),
 * clicks 'Öppna chatten' the moment it shows and notes when the newest message is on screen.
 */
async function openOffline(context: BrowserContext, url: string): Promise<Opening> {
  const page = await context.newPage();
  await page.addInitScript((newest) => {
    const times: Record<string, number> = {};
    (window as unknown as { __coldStart: Record<string, number> }).__coldStart = times;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') times['fcp'] = e.startTime;
    }).observe({ type: 'paint', buffered: true });
    // Polled (every 4 ms) rather than watched with a MutationObserver: a row can become visible by
    // layout alone, with no mutation to report it. Inline, not a named const: tsx would wrap a named
    // function in a helper the page lacks.
    const poll = setInterval(() => {
      if (times['firstScreen'] === undefined) {
        const button = [...document.querySelectorAll('button')].find(
          (b) => b.textContent === 'Öppna chatten',
        );
        if (button) {
          times['firstScreen'] = performance.now();
          times['click'] = performance.now();
          button.click();
        }
      }
      if (times['chat'] === undefined) {
        const dialog = document.querySelector('dialog[open]');
        const row = [...(dialog?.querySelectorAll('li') ?? [])].find((li) =>
          li.textContent?.includes(newest),
        );
        const box = row?.getBoundingClientRect();
        if (box && box.height > 0 && box.top >= 0 && box.bottom <= innerHeight) {
          times['chat'] = performance.now();
          clearInterval(poll);
        }
      }
    }, 4);
  }, NEWEST);
  const cdp = PROFILE ? await context.newCDPSession(page) : null;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  await page.goto(url);
  await page
    .waitForFunction(
      () => {
        const t = (window as unknown as { __coldStart: Record<string, number> }).__coldStart;
        return t['chat'] !== undefined && performance.getEntriesByName('portal:worker-ready').length > 0;
      },
      undefined,
      { timeout: 30_000 },
    )
    .catch(async (e: unknown) => {
      console.error(
        await page.evaluate(() => [
          JSON.stringify((window as unknown as { __coldStart: unknown }).__coldStart),
          document.body.innerText.slice(0, 800),
        ]),
      );
      throw e;
    });

  const t: Record<string, number> = await page.evaluate(() => ({
    ...(window as unknown as { __coldStart: Record<string, number> }).__coldStart,
    workerReady: performance.getEntriesByName('portal:worker-ready')[0]!.startTime,
  }));
  const profile = cdp ? ((await cdp.send('Profiler.stop')).profile as CpuProfile) : null;
  await page.close();
  const round = (n: number) => Math.round(n);
  return {
    navToFcpMs: round(t['fcp']!),
    navToFirstScreenMs: round(t['firstScreen']!),
    navToWorkerReadyMs: round(t['workerReady']!),
    workerReadyToChatMs: round(t['chat']! - t['workerReady']!),
    clickToChatMs: round(t['chat']! - t['click']!),
    ...(profile ? { profileTop: topFunctions(profile) } : {}),
  };
}

/** The history chat opened, then scrolled from the newest message to the first; long tasks noted. */
async function scrollHistory(page: Page, url: string) {
  await page.goto(`${url}/mina-sidor`);
  const history = page
    .locator('#historik')
    .getByRole('list', { name: 'Chatthistorik' })
    .getByRole('listitem');
  await page.evaluate(() => {
    const tasks: number[] = [];
    (window as unknown as { __longTasks: number[] }).__longTasks = tasks;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) tasks.push(e.duration);
    }).observe({ type: 'longtask' });
  });
  const cdp = PROFILE ? await page.context().newCDPSession(page) : null;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  const clickedAt = await page.evaluate(() => performance.now());
  await history
    .first()
    .getByRole('button', { name: /^Chatt från/ })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Chatthistorik' });
  await dialog.getByText(HISTORY_NEWEST).waitFor();
  const openMs = Math.round((await page.evaluate(() => performance.now())) - clickedAt);
  const openTasks = await page.evaluate(() =>
    (window as unknown as { __longTasks: number[] }).__longTasks.splice(0),
  );
  const openProfile = cdp ? ((await cdp.send('Profiler.stop')).profile as CpuProfile) : null;

  // A screen up per animation frame until the first message shows (or 5,000 frames).
  const frames = await dialog.getByRole('list', { name: 'Meddelanden' }).evaluate(async (list) => {
    for (let frame = 1; frame <= 5000; frame++) {
      await new Promise((r) => requestAnimationFrame(r));
      list.scrollTop -= list.clientHeight;
      if (list.scrollTop <= 0 && list.textContent?.includes('Hej!')) return frame;
    }
    throw new Error('the first message never showed');
  });
  // The observer reports a task after it ended: one more frame so the last is in.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
  const scrollTasks = await page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks);
  const renderedRows = await dialog.getByRole('list', { name: 'Meddelanden' }).locator('li').count();
  return {
    openToNewestMs: openMs,
    longTasksWhileOpening: openTasks.map(Math.round),
    ...(openProfile ? { openingProfileTop: topFunctions(openProfile) } : {}),
    scrolledFrames: frames,
    longTasksWhileScrolling: scrollTasks.length,
    longestTaskWhileScrollingMs: Math.round(Math.max(0, ...scrollTasks)),
    rowsInDomAtTheTop: renderedRows,
  };
}

async function main() {
  const server = await startBenchServer({
    ...PRODUCTION_ENV,
    DEMO_SEED: '1',
    APP_VARIANT: 'barn',
    CLIENT_DIR: process.env.CLIENT_DIR ?? 'dist',
  });
  const browser = await launchChromium();
  try {
    const counsellor = (await login(server.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token;
    const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
    // The service worker registers at once instead of after 30 s (src/pwa).
    await context.addInitScript(() => {
      (window as unknown as { __PWA_TEST_DELAY_MS__: number }).__PWA_TEST_DELAY_MS__ = 0;
    });
    const page = await context.newPage();
    const { id } = await demoChildInLiveChat(page, server.url, server.url, counsellor);
    const onServer = async () =>
      (
        (await api(server.url, `/portal/staff/conversations/${id}/messages`, { token: counsellor })).body as {
          value: unknown[];
        }
      ).value.length;
    const say = (content: string) =>
      api(server.url, `/portal/staff/conversations/${id}/messages`, { token: counsellor, body: { content } });

    // 1. A live chat of CHAT_MESSAGES messages in the cache, the app installed.
    const filler = (n: number, from: number) => Array.from({ length: n }, (_, i) => `Meddelande ${from + i}`);
    await appendCounsellorMessages(server.databaseUrl, id, filler(CHAT_MESSAGES - (await onServer()) - 1, 1));
    await say(NEWEST);
    await page.reload();
    await untilCached(page, await onServer());
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.close();

    // 2. Offline openings.
    await context.setOffline(true);
    const openings: Opening[] = [];
    for (let i = 0; i < RUNS; i++) openings.push(await openOffline(context, `${server.url}/`));
    const median = (key: Exclude<keyof Opening, 'profileTop'>) =>
      percentile(
        openings.map((o) => o[key]).sort((a, b) => a - b),
        50,
      );
    const coldStart = {
      chatMessages: CHAT_MESSAGES,
      runs: RUNS,
      navToFcpMs: median('navToFcpMs'),
      navToFirstScreenMs: median('navToFirstScreenMs'),
      navToWorkerReadyMs: median('navToWorkerReadyMs'),
      workerReadyToChatMs: median('workerReadyToChatMs'),
      clickToChatMs: median('clickToChatMs'),
      all: openings,
    };
    await context.setOffline(false);

    // 3. A history of HISTORY_MESSAGES messages, scrolled.
    const history = await context.newPage();
    await history.goto(`${server.url}/`);
    await appendCounsellorMessages(
      server.databaseUrl,
      id,
      filler(HISTORY_MESSAGES - (await onServer()) - 1, CHAT_MESSAGES),
    );
    await say(HISTORY_NEWEST);
    await api(server.url, `/portal/staff/conversations/${id}/resolve`, { token: counsellor, body: {} });
    await history.reload();
    await history.getByRole('button', { name: 'Starta en chatt' }).waitFor();
    await history.goto(`${server.url}/mina-sidor`);
    await untilCached(history, await onServer());
    await context.setOffline(true);
    const scroll = await scrollHistory(history, server.url);

    printReport({ coldStart, history: { messages: HISTORY_MESSAGES, ...scroll } });
  } finally {
    await browser.close();
    await server.stop();
  }
}

runBench(main);
