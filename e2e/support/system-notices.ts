import { expect, type BrowserContext, type Page } from '@playwright/test';

export interface ShownNotice {
  title: string;
  body: string;
  tag: string;
  url: unknown;
}

/**
 * Counts the notices the app has finished showing through its service worker registration (the real
 * call still runs). Chromium's getNotifications() checks its stored notices against the displayed
 * ones and forgets one that is being displayed at that moment, so a test reads the list only once
 * the show it waits for is done. Call before the page loads.
 */
export async function countNoticeShows(page: Page) {
  await page.addInitScript(() => {
    const counted = window as unknown as { __noticeShows: { started: number; done: number } };
    counted.__noticeShows = { started: 0, done: 0 };
    const show = ServiceWorkerRegistration.prototype.showNotification;
    ServiceWorkerRegistration.prototype.showNotification = function (
      this: ServiceWorkerRegistration,
      ...args: Parameters<typeof show>
    ) {
      counted.__noticeShows.started += 1;
      return show.apply(this, args).finally(() => {
        counted.__noticeShows.done += 1;
      });
    };
  });
}

/** Waits until the app has finished `shows` notices in all and has none under way. */
async function noticeShowsDone(page: Page, shows: number) {
  await expect
    .poll(
      () =>
        page.evaluate((n) => {
          const counted = (window as unknown as { __noticeShows?: { started: number; done: number } })
            .__noticeShows;
          if (!counted) return 'not counted: call countNoticeShows(page) before the page loads';
          return counted.done >= n && counted.started === counted.done;
        }, shows),
      { timeout: 15_000, message: `the app finished ${shows} notice(s)` },
    )
    .toBe(true);
}

/** The notifications the app's service worker registration shows now (Chromium lists them). */
export function shownNotices(page: Page): Promise<ShownNotice[]> {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return (await registration.getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      url: (n.data as { url?: unknown } | null)?.url,
    }));
  });
}

/**
 * Waits until the data worker's hub connection is up (as the worker writes it to `portal-data`): a
 * notice that comes as a hub event (an answered mail) is only heard once the connection is there.
 */
export async function expectHubConnected(page: Page) {
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const open = indexedDB.open('portal-data');
          open.onsuccess = () => resolve(open.result);
          open.onerror = () => reject(open.error ?? new Error('portal-data did not open'));
        });
        try {
          const row = await new Promise<{ hubState?: string } | undefined>((resolve, reject) => {
            const get = db.transaction('runtime').objectStore('runtime').get('current');
            get.onsuccess = () => resolve(get.result as { hubState?: string } | undefined);
            get.onerror = () => reject(get.error ?? new Error('runtime not read'));
          });
          return row?.hubState;
        } finally {
          db.close();
        }
      }),
    )
    .toBe('Connected');
}

/**
 * Waits until exactly `expected` is shown, after the app finished `shows` notices in all (see
 * countNoticeShows). A notice crosses the server, the hub, the data worker, a
 * tab and the service worker: on a loaded machine that can take longer than the default 5 s.
 */
export async function expectNotices(page: Page, expected: ShownNotice[], { shows = 0 } = {}) {
  await noticeShowsDone(page, shows);
  await expect.poll(() => shownNotices(page), { timeout: 15_000 }).toEqual(expected);
}

export async function closeNotices(page: Page) {
  await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    for (const notice of await registration.getNotifications()) notice.close();
  });
  await expectNotices(page, []);
}

/**
 * The page behaves as a tab in the background: a test cannot hide a page, so it is told it is
 * hidden, and the app hears of it as it would.
 */
export async function pretendHidden(page: Page) {
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

/** The page is in front again (after pretendHidden). */
export async function pretendVisible(page: Page) {
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

/**
 * A click on the one notice shown. Nobody can click a system notification in a test, so the
 * service worker is handed the event the browser would give it.
 */
export async function clickNotice(context: BrowserContext) {
  const [serviceWorker] = context.serviceWorkers();
  if (!serviceWorker) throw new Error('no service worker');
  await serviceWorker.evaluate(async () => {
    const scope = self as unknown as ServiceWorkerGlobalScope;
    const [notification] = await scope.registration.getNotifications();
    if (!notification) throw new Error('no notice to click');
    try {
      scope.dispatchEvent(new NotificationEvent('notificationclick', { notification }));
    } catch {
      // A test's event is not the browser's: its waitUntil refuses, after the handler started.
    }
  });
}
