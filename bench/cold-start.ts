/**
 * Cold start from cache (npm run bench:coldstart, after `npm run build`): the installed app opened
 * offline, in Debian Chromium, against a production server of the built client.
 *
 * 1. The demo child is in a live chat of the few messages `demoChildInLiveChat` makes, cached, with
 *    the service worker installed. Offline, the app is opened and watched until its first screen (the
 *    start page's 'Öppna chatten') and for 2 s after: navigation to first paint, to the first screen,
 *    to the worker's first answer (the 'portal:worker-ready' mark), and the long tasks meanwhile.
 * 2. The chat is made BENCH_CHAT_MESSAGES (default 2,000) long (the messages between written to the
 *    database, harness/long-chat.ts) and loaded into the app's database online. Offline, the
 *    app is opened again and, the chat opened the moment its button shows, its newest message on
 *    screen is timed from the worker being ready and from the click. Beside it, the floor of its rows
 *    (bench/floor.ts): the whole chat and the newest page, read unsealed in the same page.
 * 3. The chat is made BENCH_HISTORY_MESSAGES (default 10,000) long and ended (resolved; its messages
 *    cached, no window open). Offline, the app is opened as in 1 (the first screen is then 'Starta en
 *    chatt'): the first screen over the empty chat's is what a long last chat costs the start page.
 * 4. That history, opened from my pages: the click to its newest message on screen and the long
 *    tasks meanwhile, beside its floors; then, in the last opening, scrolled from its newest message
 *    to its first, a screen per animation frame, with the long tasks (over 50 ms) counted.
 *
 * Every figure is the median of BENCH_RUNS (default 5) offline openings; the load average is printed
 * at the start and the end, as a busy machine moves every figure.
 */
import type { BrowserContext, Locator, Page } from '@playwright/test';
import { api, login } from '../harness/test-server.ts';
import { appendCounsellorMessages } from '../harness/long-chat.ts';
import {
  demoChildInLiveChat,
  loadAverage,
  percentile,
  printReport,
  runBench,
  startBenchServer,
  untilCached,
} from './support.ts';
import { launchChromium } from '../harness/chromium.ts';
import { chatRowsFromServer, measureFloors, newestFrom, overFloors, type Floor } from './floor.ts';
import type { ChatMessageRow } from '../worker/base/group-support.ts';
import { PRODUCTION_ENV } from '../harness/server-process.ts';

const CHAT_MESSAGES = Number(process.env.BENCH_CHAT_MESSAGES ?? 2000);
const HISTORY_MESSAGES = Number(process.env.BENCH_HISTORY_MESSAGES ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/** BENCH_PROFILE=1: a CPU profile of the page's main thread in each opening, its top functions printed. */
const PROFILE = process.env.BENCH_PROFILE === '1';
/** A tap's length, finger down to click (BENCH_TAP_MS): a quick tap on a phone lasts about this. */
const TAP_MS = Number(process.env.BENCH_TAP_MS ?? 80);
const NEWEST = 'Det senaste meddelandet';
const HISTORY_NEWEST = 'Det sista meddelandet i historiken';
/** The start page's chat button: a live chat's, and an ended one's (a new chat may be started). */
const OPEN_CHAT = 'Öppna chatten';
const START_CHAT = 'Starta en chatt';
/** How long after the first screen its long tasks are still counted (the rest of the start's work). */
const AFTER_FIRST_SCREEN_MS = 2000;
/** A long task over this keeps a tap waiting visibly (the target: none). */
const LONG_TASK_TARGET_MS = 100;

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
  /** Only where the chat was opened from the first screen. */
  workerReadyToChatMs?: number;
  clickToChatMs?: number;
  /** From the finger down (a tap of TAP_MS): what the child waits. */
  touchToChatMs?: number;
  /** Durations (ms) of the long tasks from navigation to the first screen. */
  longTasksToFirstScreenMs: number[];
  /**
   * And after it: for AFTER_FIRST_SCREEN_MS, or until the chat is on screen where it was opened.
   */
  longTasksAfterFirstScreenMs: number[];
  profileTop?: Array<[string, number]>;
}

interface OpenOptions {
  /** The text of the start page's chat button: its showing is the first screen. */
  marker: string;
  /** Click it the moment it shows and time the chat's newest message on screen. */
  openChat: boolean;
  /** Runs in the page after its figures are taken, before it closes (the floor). */
  after?: (page: Page) => Promise<void>;
}

/**
 * Opens the app offline in a new tab and, in the page itself (no round trip to this process), notes
 * when the first screen's button shows; with `openChat`, clicks it at once and notes when the newest
 * message is on screen, else watches AFTER_FIRST_SCREEN_MS more. Long tasks are noted from the start.
 */
async function openOffline(context: BrowserContext, url: string, options: OpenOptions): Promise<Opening> {
  const page = await context.newPage();
  await page.addInitScript(
    ({ newest, marker, openChat, tapMs }) => {
      const times: Record<string, number> = {};
      const tasks: Array<[number, number]> = [];
      Object.assign(window, { __coldStart: times, __longTasks: tasks });
      new PerformanceObserver((list) => {
        for (const e of list.getEntries())
          if (e.name === 'first-contentful-paint') times['fcp'] = e.startTime;
      }).observe({ type: 'paint', buffered: true });
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) tasks.push([e.startTime, e.duration]);
      }).observe({ type: 'longtask', buffered: true });
      // Polled (every 4 ms) rather than watched with a MutationObserver: a row can become visible by
      // layout alone, with no mutation to report it. Inline, not a named const: tsx would wrap a named
      // function in a helper the page lacks.
      const poll = setInterval(() => {
        if (times['firstScreen'] === undefined) {
          // Settled: the button enabled, or the card saying why not (a start page still reading the
          // chat's state shows 'Starta en chatt' disabled for a moment, also to a child whose chat
          // goes on; after today's chat it stays disabled, under 'Du har redan chattat idag.').
          const button = [...document.querySelectorAll('button')].find(
            (b) =>
              b.textContent === marker &&
              (!b.disabled || !!b.closest('section')?.textContent?.includes('Du har redan chattat idag')),
          );
          if (button) {
            times['firstScreen'] = performance.now();
            if (!openChat) {
              clearInterval(poll);
              return;
            }
            // A tap as a finger makes it: down, and the click a tap's length later (the app may start
            // reading on the pointer down: src/one-to-one-chat/chat-store.ts chatWindowWanted).
            times['touch'] = performance.now();
            button.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, pointerType: 'touch' }));
            setTimeout(() => {
              times['click'] = performance.now();
              button.click();
            }, tapMs);
          }
        }
        if (openChat && times['chat'] === undefined) {
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
    },
    { newest: NEWEST, marker: options.marker, openChat: options.openChat, tapMs: TAP_MS },
  );
  const cdp = PROFILE ? await context.newCDPSession(page) : null;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  await page.goto(url);
  await page
    .waitForFunction(
      ({ openChat, afterMs }) => {
        const t = (window as unknown as { __coldStart: Record<string, number> }).__coldStart;
        const done = openChat
          ? t['chat'] !== undefined
          : t['firstScreen'] !== undefined && performance.now() >= t['firstScreen'] + afterMs;
        return done && performance.getEntriesByName('portal:worker-ready').length > 0;
      },
      { openChat: options.openChat, afterMs: AFTER_FIRST_SCREEN_MS },
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
  // The observer reports a task after it ended: one more frame so the last is in.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));

  const { t, tasks }: { t: Record<string, number>; tasks: Array<[number, number]> } = await page.evaluate(
    () => {
      const w = window as unknown as {
        __coldStart: Record<string, number>;
        __longTasks: Array<[number, number]>;
      };
      return {
        t: {
          ...w.__coldStart,
          workerReady: performance.getEntriesByName('portal:worker-ready')[0]!.startTime,
        },
        tasks: w.__longTasks,
      };
    },
  );
  const profile = cdp ? ((await cdp.send('Profiler.stop')).profile as CpuProfile) : null;
  await options.after?.(page);
  await page.close();
  const round = (n: number) => Math.round(n);
  const firstScreen = t['firstScreen']!;
  const end = options.openChat ? t['chat']! : firstScreen + AFTER_FIRST_SCREEN_MS;
  const durations = (from: number, to: number) =>
    tasks.filter(([start]) => start >= from && start < to).map(([, duration]) => round(duration));
  return {
    navToFcpMs: round(t['fcp']!),
    navToFirstScreenMs: round(firstScreen),
    navToWorkerReadyMs: round(t['workerReady']!),
    ...(options.openChat
      ? {
          workerReadyToChatMs: round(t['chat']! - t['workerReady']!),
          clickToChatMs: round(t['chat']! - t['click']!),
          touchToChatMs: round(t['chat']! - t['touch']!),
        }
      : {}),
    longTasksToFirstScreenMs: durations(-Infinity, firstScreen),
    longTasksAfterFirstScreenMs: durations(firstScreen, end),
    ...(profile ? { profileTop: topFunctions(profile) } : {}),
  };
}

const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

/** The longest of all runs' long tasks and how many were over the target, in all runs together. */
function longTaskSummary(runs: number[][]) {
  const all = runs.flat();
  return {
    longestTaskMs: Math.max(0, ...all),
    longTasksOver100ms: all.filter((d) => d > LONG_TASK_TARGET_MS).length,
  };
}

/** RUNS offline openings and their medians. */
async function openings(context: BrowserContext, url: string, options: OpenOptions) {
  const all: Opening[] = [];
  for (let i = 0; i < RUNS; i++)
    all.push(
      await openOffline(context, url, { ...options, after: i === RUNS - 1 ? options.after : undefined }),
    );
  const of = (
    key:
      | 'navToFcpMs'
      | 'navToFirstScreenMs'
      | 'navToWorkerReadyMs'
      | 'workerReadyToChatMs'
      | 'clickToChatMs'
      | 'touchToChatMs',
  ) => median(all.map((o) => o[key] ?? Number.NaN));
  return {
    runs: RUNS,
    navToFcpMs: of('navToFcpMs'),
    navToFirstScreenMs: of('navToFirstScreenMs'),
    navToWorkerReadyMs: of('navToWorkerReadyMs'),
    ...(options.openChat
      ? {
          workerReadyToChatMs: of('workerReadyToChatMs'),
          clickToChatMs: of('clickToChatMs'),
          touchToChatMs: of('touchToChatMs'),
        }
      : {}),
    longTasks: {
      toFirstScreen: longTaskSummary(all.map((o) => o.longTasksToFirstScreenMs)),
      afterFirstScreen: longTaskSummary(all.map((o) => o.longTasksAfterFirstScreenMs)),
    },
    all,
  };
}

/** Starts a CPU profile of `page` when BENCH_PROFILE=1; `stop` gives its top functions. */
async function startProfile(page: Page) {
  if (!PROFILE) return { stop: async () => undefined };
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  return { stop: async () => topFunctions((await cdp.send('Profiler.stop')).profile as CpuProfile) };
}

/**
 * The history chat opened from my pages (loaded afresh): the click to its newest message, long tasks
 * noted. `openToNewestMs` is taken as before, from this process (Playwright's click and wait, with
 * their round trips); `clickToNewestInPageMs` in the page, from the click event to the newest row
 * inside the viewport (polled every 4 ms, as the cold start's chat is), which is what a floor of a
 * few milliseconds can be compared with.
 */
async function openHistory(page: Page, url: string) {
  await page.goto(`${url}/mina-sidor`);
  const history = page
    .locator('#historik')
    .getByRole('list', { name: 'Chatthistorik' })
    .getByRole('listitem');
  await page.evaluate((newest) => {
    const tasks: number[] = [];
    const times: Record<string, number> = {};
    Object.assign(window, { __longTasks: tasks, __history: times });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) tasks.push(e.duration);
    }).observe({ type: 'longtask' });
    document.addEventListener('click', () => (times['click'] ??= performance.now()), { capture: true });
    const poll = setInterval(() => {
      if (times['click'] === undefined) return;
      const dialog = document.querySelector('dialog[open]');
      const row = [...(dialog?.querySelectorAll('li') ?? [])].find((li) => li.textContent?.includes(newest));
      const box = row?.getBoundingClientRect();
      if (box && box.height > 0 && box.top >= 0 && box.bottom <= innerHeight) {
        times['newest'] = performance.now();
        clearInterval(poll);
      }
    }, 4);
  }, HISTORY_NEWEST);
  // The history's button is waited for before the clock starts: `goto` resolves at the load event,
  // before my pages have read the history list, and that wait is not the chat's opening.
  const button = history.first().getByRole('button', { name: /^Chatt från/ });
  await button.waitFor();
  const profile = await startProfile(page);
  const clickedAt = await page.evaluate(() => performance.now());
  await button.click();
  const dialog = page.getByRole('dialog', { name: 'Chatthistorik' });
  await dialog.getByText(HISTORY_NEWEST).waitFor();
  const openToNewestMs = Math.round((await page.evaluate(() => performance.now())) - clickedAt);
  await page.waitForFunction(
    () => (window as unknown as { __history: Record<string, number> }).__history['newest'] !== undefined,
  );
  const inPage = await page.evaluate(
    () => (window as unknown as { __history: Record<string, number> }).__history,
  );
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
  const tasks = await page.evaluate(() =>
    (window as unknown as { __longTasks: number[] }).__longTasks.splice(0),
  );
  const profileTop = await profile.stop();
  return {
    dialog,
    opening: {
      openToNewestMs,
      clickToNewestInPageMs: Math.round(inPage['newest']! - inPage['click']!),
      /** Of openToNewestMs, what went before the click event reached the page (Playwright's click). */
      untilClickEventMs: Math.round(inPage['click']! - clickedAt),
      longTasksWhileOpening: tasks.map(Math.round),
      ...(profileTop ? { openingProfileTop: profileTop } : {}),
    },
  };
}

/** The open history scrolled a screen up per animation frame until its first message shows. */
async function scrollToFirst(page: Page, dialog: Locator) {
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
    scrolledFrames: frames,
    longTasksWhileScrolling: scrollTasks.length,
    longestTaskWhileScrollingMs: Math.round(Math.max(0, ...scrollTasks)),
    rowsInDomAtTheTop: renderedRows,
  };
}

/** The floors of a chat's rows in `page`: the whole chat and the page a chat opens with. */
const chatFloors = (page: Page, rows: ChatMessageRow[]) =>
  measureFloors(page, rows, { wholeChat: '', newestPage: newestFrom(rows) });

async function main() {
  const loadAtStart = loadAverage();
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
    // The rows as the child's app fetches them, with a token of the child's own (for the floors).
    const childRows = async () =>
      chatRowsFromServer(server.url, (await login(server.url, 'demo', 'demo-losenord')).access_token, id);

    // 1. The empty chat in the cache, the app installed: the first screen.
    await untilCached(page, await onServer());
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.close();
    await context.setOffline(true);
    // One opening not counted: the first after the install pays for what later ones find ready (the
    // service worker starting, scripts compiled without a code cache), which would weigh on the empty
    // chat's figures alone and flatter the ratio of the ended chat's to them.
    await openOffline(context, `${server.url}/`, { marker: OPEN_CHAT, openChat: false });
    const emptyChat = {
      messages: await onServer(),
      marker: OPEN_CHAT,
      ...(await openings(context, `${server.url}/`, { marker: OPEN_CHAT, openChat: false })),
    };
    await context.setOffline(false);

    // 2. A live chat of CHAT_MESSAGES messages in the cache: opened from the first screen.
    const live = await context.newPage();
    await live.goto(`${server.url}/`);
    const filler = (n: number, from: number) => Array.from({ length: n }, (_, i) => `Meddelande ${from + i}`);
    await appendCounsellorMessages(server.databaseUrl, id, filler(CHAT_MESSAGES - (await onServer()) - 1, 1));
    await say(NEWEST);
    await live.reload();
    await untilCached(live, await onServer());
    await live.close();
    const liveRows = await childRows();
    let liveFloor: Record<'wholeChat' | 'newestPage', Floor> | undefined;
    await context.setOffline(true);
    const liveOpenings = await openings(context, `${server.url}/`, {
      marker: OPEN_CHAT,
      openChat: true,
      after: async (opened) => {
        liveFloor = await chatFloors(opened, liveRows);
      },
    });
    const coldStart = {
      chatMessages: CHAT_MESSAGES,
      ...liveOpenings,
      floor: liveFloor!,
      clickToChatOverFloor: overFloors(liveOpenings.clickToChatMs!, liveFloor!),
    };
    await context.setOffline(false);

    // 3. The live chat made HISTORY_MESSAGES long, in the cache: the first screen as with the empty
    // one (the same screen, 'Öppna chatten', the same child), its window not opened.
    const ended = await context.newPage();
    await ended.goto(`${server.url}/`);
    await appendCounsellorMessages(
      server.databaseUrl,
      id,
      filler(HISTORY_MESSAGES - (await onServer()) - 1, CHAT_MESSAGES),
    );
    await say(HISTORY_NEWEST);
    await ended.reload();
    await untilCached(ended, await onServer());
    await context.setOffline(true);
    const longChat = {
      messages: await onServer(),
      marker: OPEN_CHAT,
      ...(await openings(context, `${server.url}/`, { marker: OPEN_CHAT, openChat: false })),
    };
    await context.setOffline(false);

    // 4. The long chat ended, in the cache: the first screen again (it reads none of it).
    await api(server.url, `/portal/staff/conversations/${id}/resolve`, { token: counsellor, body: {} });
    await ended.reload();
    await ended.getByRole('button', { name: START_CHAT }).waitFor();
    await ended.goto(`${server.url}/mina-sidor`);
    await untilCached(ended, await onServer());
    await ended.close();
    const historyRows = await childRows();
    await context.setOffline(true);
    const endedChat = {
      messages: await onServer(),
      marker: START_CHAT,
      ...(await openings(context, `${server.url}/`, { marker: START_CHAT, openChat: false })),
    };

    // 5. The history opened from my pages RUNS times, scrolled in the last; its floors there.
    const history = await context.newPage();
    const opened: Array<Awaited<ReturnType<typeof openHistory>>['opening']> = [];
    let scroll: Awaited<ReturnType<typeof scrollToFirst>> | undefined;
    for (let i = 0; i < RUNS; i++) {
      const { dialog, opening } = await openHistory(history, server.url);
      opened.push(opening);
      if (i === RUNS - 1) scroll = await scrollToFirst(history, dialog);
    }
    const historyFloor = await chatFloors(history, historyRows);
    const openToNewestMs = median(opened.map((o) => o.openToNewestMs));
    const clickToNewestInPageMs = median(opened.map((o) => o.clickToNewestInPageMs));
    const openingTasks = longTaskSummary(opened.map((o) => o.longTasksWhileOpening));

    printReport({
      loadAverage: { atStart: loadAtStart, atEnd: loadAverage() },
      firstScreen: {
        emptyChat,
        longChat,
        // The target: the same first screen with a long last chat as with an empty one.
        longOverEmpty: Math.round((longChat.navToFirstScreenMs / emptyChat.navToFirstScreenMs) * 100) / 100,
        endedChat,
        // Another screen ('Starta en chatt', settled once the account's chat status is in), so
        // compared by the worker's first answer too.
        endedOverEmpty: Math.round((endedChat.navToFirstScreenMs / emptyChat.navToFirstScreenMs) * 100) / 100,
        workerReadyEndedOverEmpty:
          Math.round((endedChat.navToWorkerReadyMs / emptyChat.navToWorkerReadyMs) * 100) / 100,
      },
      coldStart,
      history: {
        messages: HISTORY_MESSAGES,
        runs: RUNS,
        openToNewestMs,
        // Every run's, in order (one run: the list it always was).
        longTasksWhileOpening: opened.flatMap((o) => o.longTasksWhileOpening),
        longestTaskWhileOpeningMs: openingTasks.longestTaskMs,
        longTasksOver100msWhileOpening: openingTasks.longTasksOver100ms,
        floor: historyFloor,
        openToNewestOverFloor: overFloors(openToNewestMs, historyFloor),
        clickToNewestInPageMs,
        clickToNewestInPageOverFloor: overFloors(clickToNewestInPageMs, historyFloor),
        ...scroll!,
        all: opened,
      },
    });
  } finally {
    await browser.close();
    await server.stop();
  }
}

runBench(main);
