import { expect, type BrowserContext, type CDPSession, type Page, type Worker } from '@playwright/test';
import type { ShownNotice } from './system-notices.ts';

/**
 * Counts the page's PushManager.subscribe calls and how each ended. Chromium's subscribe needs
 * Google's push service, which a test machine cannot reach: a test sees the app ask, and sees it fail
 * quietly. Call before the page loads.
 */
export async function countSubscribes(page: Page) {
  await page.addInitScript(() => {
    const counted = window as unknown as { __pushSubscribes: { started: number; settled: number } };
    counted.__pushSubscribes = { started: 0, settled: 0 };
    const subscribe = PushManager.prototype.subscribe;
    PushManager.prototype.subscribe = function (this: PushManager, ...args: Parameters<typeof subscribe>) {
      counted.__pushSubscribes.started += 1;
      return subscribe.apply(this, args).finally(() => {
        counted.__pushSubscribes.settled += 1;
      });
    };
  });
}

interface Counted {
  started: number;
  settled: number;
}

/**
 * Waits until the page has asked the browser for a push subscription at least `n` times and had
 * every answer. The tap and the page's keeper may each ask (the second joins the first, or follows
 * it once it failed), so the count is a floor.
 */
export async function expectSubscribesSettled(page: Page, n: number) {
  await expect
    .poll(
      async () => {
        const counted = await page.evaluate(
          () => (window as unknown as { __pushSubscribes?: Counted }).__pushSubscribes ?? null,
        );
        return counted !== null && counted.started >= n && counted.settled === counted.started;
      },
      {
        timeout: 20_000,
        message: `the page asked for a push subscription ${n} time(s) or more, all answered`,
      },
    )
    .toBe(true);
}

/**
 * The push service's part, played through the DevTools protocol: a session on a page that is no
 * part of the app (so every app tab may be closed), and the app's service worker registration.
 */
export async function pushChannel(context: BrowserContext, blank: Page, origin: string) {
  const cdp: CDPSession = await context.newCDPSession(blank);
  const registrationId = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find((r) => !r.isDeleted && r.scopeURL === `${origin}/`);
      if (ours) resolve(ours.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  const id = await registrationId;
  return {
    /** A push message as the server sends it, to the app's service worker. */
    deliver: (data: unknown) =>
      cdp.send('ServiceWorker.deliverPushMessage', {
        origin,
        registrationId: id,
        data: JSON.stringify(data),
      }),
  };
}

/** The app's service worker as it runs now (a push may have started it again after it stopped). */
export async function runningServiceWorker(context: BrowserContext): Promise<Worker> {
  const running = context.serviceWorkers().at(-1);
  if (running) {
    try {
      await running.evaluate(() => 1);
      return running;
    } catch {
      // Stopped since: the next one to start is the one.
    }
  }
  return context.waitForEvent('serviceworker');
}

/** The notices the service worker's registration shows now. */
export function serviceWorkerNotices(worker: Worker): Promise<ShownNotice[]> {
  return worker.evaluate(async () => {
    const scope = self as unknown as ServiceWorkerGlobalScope;
    return (await scope.registration.getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      url: (n.data as { url?: unknown } | null)?.url,
    }));
  });
}
