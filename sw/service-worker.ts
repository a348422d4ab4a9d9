/// <reference lib="webworker" />
// The service worker (SPEC §1, §4 App updates, §7 last paragraph): precaches the app shell so the
// installed app opens offline, answers client routes with index.html, and keeps the last runtime
// config. API, token and hub traffic is never touched: the data worker keeps data in IndexedDB.
import { clientsClaim } from 'workbox-core';
import { addRoute, cleanupOutdatedCaches, createHandlerBoundToURL, precache } from 'workbox-precaching';
import type { PrecacheEntry } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { NetworkFirst } from 'workbox-strategies';
import { fillQuickExitUrl } from '../contract/first-screen.ts';
import { openNotice, showPushNotice } from './push.ts';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<PrecacheEntry | string> };

const CONFIG_URL = '/config.json';
const CONFIG_CACHE = 'runtime-config';

/** Paths the server answers itself; a navigation there must reach the network, never the app shell. */
const NAVIGATION_DENYLIST = [
  /^\/portal\//,
  /^\/connect\//,
  /^\/hubs\//,
  /^\/\.well-known\//,
  /^\/config\.json(?:[?#]|$)/,
  /^\/healthz(?:[?#]|$)/,
  /^\/metrics(?:[?#]|$)/,
  /^\/personal(?:[/?#]|$)/,
  // A last path segment with a dot is a file (the server answers 404 for unknown files), not a
  // client route; only the path counts, a redirectUrl in the query may well hold a dot.
  /^[^?]*\/[^/?]+\.[^/?]+(?:\?|$)/,
];

// Replaced at build time by the list of dist files (vite.config.ts, sw/vite-plugin-service-worker.ts).
precache(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// The app shell for every client route, with its quick exit leading where the last runtime config
// said (the server fills QUICK_EXIT_URL into the page; the precached copy holds what it was at
// install): a changed address reaches the first HTML, before any script, from the start after the
// config that names it.
const appShell = createHandlerBoundToURL('/index.html');
registerRoute(
  new NavigationRoute(
    async (options) => withQuickExitUrl(await appShell(options), await cachedQuickExitUrl()),
    { denylist: NAVIGATION_DENYLIST },
  ),
);
// The precached files by their own addresses; after the navigations, which would otherwise find '/'
// here (as index.html) without the configured quick exit.
addRoute();

async function cachedQuickExitUrl(): Promise<string | null> {
  try {
    const cached = await caches.match(CONFIG_URL, { cacheName: CONFIG_CACHE });
    const url = cached ? ((await cached.json()) as { quickExitUrl?: unknown }).quickExitUrl : null;
    return typeof url === 'string' ? url : null;
  } catch {
    return null;
  }
}

async function withQuickExitUrl(page: Response, url: string | null): Promise<Response> {
  if (!url || !page.ok) return page;
  const headers = new Headers(page.headers);
  // The body changes length; the cached copy's length no longer holds.
  headers.delete('Content-Length');
  return new Response(fillQuickExitUrl(await page.text(), url), {
    status: page.status,
    statusText: page.statusText,
    headers,
  });
}

// Network first, so a changed config wins at once; the cached copy lets the installed app open offline.
registerRoute(
  ({ url, request }) =>
    request.method === 'GET' && url.origin === self.location.origin && url.pathname === CONFIG_URL,
  new NetworkFirst({ cacheName: CONFIG_CACHE, networkTimeoutSeconds: 5 }),
);

// The page fetched the config before this worker controlled it, so keep a copy now: otherwise the
// first offline start after installing would have no config at all.
self.addEventListener('install', (event) => {
  event.waitUntil(storeConfig());
});

async function storeConfig() {
  try {
    const response = await fetch(CONFIG_URL, { cache: 'no-store' });
    if (response.ok) await (await caches.open(CONFIG_CACHE)).put(CONFIG_URL, response);
  } catch {
    // Offline while installing: the NetworkFirst route stores the config on the next online start.
  }
}

// A click on a notice (contract/system-notices.ts; the tabs show them through this registration, and
// so does the push handler below) opens its chat or thread: in an open tab of the app, which moves
// there without a reload, else in a new window (sw/push.ts).
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(openNotice(self, event.notification.data));
});

// Web Push with the app closed (docs/decisions.md, "Web Push on the device"): the server's neutral
// notice when a counsellor takes the child's chat or answers a mail, shown unless a tab of the app is
// in view (which shows its own). Anything but the contract's {title, tag, url} is ignored.
self.addEventListener('push', (event) => {
  event.waitUntil(
    showPushNotice(self, event.data?.text()).then(
      () => undefined,
      (error: unknown) => console.warn('Push not shown', error),
    ),
  );
});

// No 'pushsubscriptionchange' handler: a new subscription is only of use once the server has it, and
// the service worker holds no token to send it with. The page subscribes again, and sends what it
// has, at every start and sign-in (src/pwa/web-push.ts): a renewed or lost subscription is mended then.

// A new version waits until the page asks (src/pwa/update-controller.ts), so an open form is never
// reloaded from under the user; then it takes over every open tab.
self.addEventListener('message', (event) => {
  if ((event.data as { type?: unknown } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
clientsClaim();
