import type { PushSubscriptionBody } from '../../contract/schemas/push.ts';
import type { WorkerCommands } from '../../worker/client/api.ts';

/**
 * Web Push with the app closed (docs/decisions.md, "Web Push on the device"): the page's part. The
 * page holds the browser's push subscription (a SharedWorker has no `navigator.serviceWorker`, so no
 * PushManager) and the data worker, which holds the token, tells the server of it. Everything here
 * is quiet on failure: no push service reachable, no PushManager, a refusal are a warning in the
 * console, never a broken screen; the child then still gets the notices of an open tab.
 */

/** The worker's commands this needs. */
export type PushApi = Pick<WorkerCommands, 'pushKey' | 'savePushSubscription'>;

/** What this needs of a service worker registration (a test hands in a fake PushManager). */
export interface PushRegistration {
  readonly pushManager: Pick<PushManager, 'getSubscription' | 'subscribe'>;
}

/** The browser's side, injected so a test can stand in for it. */
export interface PushBrowser {
  /** The registration once it is active (waits for it), or null where the app registers none. */
  ready(): Promise<PushRegistration | null>;
  /** The registration there is now, if any: a sign-out does not wait for one. */
  current(): Promise<PushRegistration | null>;
  /** Notification permission; 'unsupported' without the Notification API. */
  permission(): NotificationPermission | 'unsupported';
}

/**
 * The page's own browser. The app registers its service worker in `production` only (startPwa in
 * ./index.ts): elsewhere there is nothing to wait for. A sign-out needs no more than `current`.
 */
export function browserPush(production = false): PushBrowser {
  const container = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
  const withPush = (registration: ServiceWorkerRegistration | undefined) =>
    registration && 'pushManager' in registration ? registration : null;
  return {
    // A service worker that never activates (its install failed) must not hold up every later call.
    ready: async () =>
      production && container ? withPush(await withinMs(container.ready, READY_WAIT_MS)) : null,
    current: async () => (container ? withPush(await container.getRegistration()) : null),
    permission: () => (typeof Notification === 'undefined' ? 'unsupported' : Notification.permission),
  };
}

/** How long a subscribe waits for the service worker to be active. */
const READY_WAIT_MS = 30_000;

/** `promise`, or undefined once `ms` have passed. */
function withinMs<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** The subscription this page last made or found: a sign-out drops it without awaiting anything first. */
let known: PushSubscription | null = null;
/** One subscribe or unsubscribe at a time: a sign-out right after a sign-in must win. */
let queue: Promise<void> = Promise.resolve();
/** The subscribe under way: a second ask meanwhile ('Ja, tack' and the permission's change) joins it. */
let keeping: Promise<void> | null = null;

function serially(run: () => Promise<void>): Promise<void> {
  queue = queue.then(run).catch((error: unknown) => console.warn('Web Push', error));
  return queue;
}

/**
 * Subscribes this browser to pushes for the signed-in child and hands the subscription to the
 * server (through the worker): after 'Ja, tack' with the permission given, and at each start and
 * sign-in of a child who said yes. A subscription made for another key (the server's key was
 * rotated) cannot be pushed to any more: it is dropped and made again. The same subscription is
 * sent again each time, so the server's copy follows a new sign-in and a browser that renewed it.
 */
export function keepPushSubscription(api: PushApi, browser: PushBrowser): Promise<void> {
  // Asked before joining: a subscribe that started before the permission was given made nothing.
  if (browser.permission() !== 'granted') return Promise.resolve();
  if (keeping) return keeping;
  const kept = serially(async () => {
    const registration = await browser.ready();
    if (!registration?.pushManager) return;
    const key = await api.pushKey();
    if (!key.ok) {
      console.warn('Web Push: no server key', key.code);
      return;
    }
    const serverKey = base64UrlBytes(key.value);
    const { pushManager } = registration;
    let subscription = await pushManager.getSubscription();
    if (subscription && !sameBytes(subscription.options.applicationServerKey, serverKey)) {
      await subscription.unsubscribe();
      subscription = null;
    }
    subscription ??= await pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: serverKey });
    known = subscription;
    const body = subscriptionBody(subscription);
    if (!body) {
      console.warn('Web Push: the subscription has no endpoint or keys');
      return;
    }
    const saved = await api.savePushSubscription(body);
    if (!saved.ok) console.warn('Web Push: subscription not saved', saved.code);
  }).finally(() => {
    if (keeping === kept) keeping = null;
  });
  keeping = kept;
  return kept;
}

/**
 * At a sign-out and a quick exit: this browser takes no more pushes for whoever was signed in.
 * The known subscription is dropped at once, before anything is awaited, since a quick exit leaves
 * the page right after (the browser finishes an unsubscribe it was asked for); the registration's
 * own is looked up as well, for a page that never kept one. Fire and forget.
 */
export function dropPushSubscription(browser: Pick<PushBrowser, 'current'> = browserPush()): Promise<void> {
  const last = known;
  known = null;
  const quietly = (error: unknown) => console.warn('Web Push: not dropped', error);
  const dropped = last?.unsubscribe().catch(quietly);
  // Asked at once as well, not behind a subscribe under way: a quick exit leaves right after.
  const registered = browser
    .current()
    .then(async (registration) => (await registration?.pushManager?.getSubscription())?.unsubscribe())
    .catch(quietly);
  return serially(async () => {
    await Promise.all([dropped, registered]);
    // A subscribe that was under way may have made one meanwhile.
    const registration = await browser.current();
    await (await registration?.pushManager?.getSubscription())?.unsubscribe();
  });
}

/** What the contract takes of `toJSON()`, or null when the browser left out what the server needs. */
function subscriptionBody(subscription: PushSubscription): PushSubscriptionBody | null {
  const { endpoint, expirationTime, keys } = subscription.toJSON();
  const p256dh = keys?.p256dh;
  const auth = keys?.auth;
  if (!endpoint || !p256dh || !auth) return null;
  return { endpoint, ...(expirationTime !== undefined ? { expirationTime } : {}), keys: { p256dh, auth } };
}

/** The VAPID key as the bytes `applicationServerKey` takes (base64url, padding tolerated). */
export function base64UrlBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function sameBytes(key: ArrayBuffer | null, expected: Uint8Array): boolean {
  if (!key || key.byteLength !== expected.byteLength) return false;
  const bytes = new Uint8Array(key);
  return bytes.every((byte, i) => byte === expected[i]);
}
