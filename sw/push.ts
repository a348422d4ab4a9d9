/// <reference lib="webworker" />
// Web Push with the app closed, and the click on any notice (docs/decisions.md, "Web Push on the
// device"): the service worker's logic, apart from its events, so tests run it with fake clients.
import {
  NOTICE_TITLE,
  YOUR_TURN_TITLE,
  type OpenNoticeMessage,
  type PushNotice,
} from '../contract/system-notices.ts';

/** What the push handler needs of the service worker's scope. */
export interface PushScope {
  clients: Pick<Clients, 'matchAll'>;
  registration: Pick<ServiceWorkerRegistration, 'showNotification'>;
}

/** The only titles a notice shows: never the server's words beyond these (a lock screen is public). */
const TITLES: readonly string[] = [NOTICE_TITLE, YOUR_TURN_TITLE];

/** The service worker's own origin (a stand-in where there is none, as in a unit test). */
const appOrigin = () =>
  (globalThis as { location?: { origin: string } }).location?.origin ?? 'https://app.invalid';

/** A path of this app: a notice never leads anywhere else (not '//host', which is another site). */
export function appPath(url: unknown, origin = appOrigin()): string | null {
  if (typeof url !== 'string' || !url.startsWith('/') || url.startsWith('//')) return null;
  // Resolved as the browser would open it: '/\\evil.example' or a tab inside '//' leads elsewhere.
  let resolved: URL;
  try {
    resolved = new URL(url, origin);
  } catch {
    return null;
  }
  return resolved.origin === origin ? `${resolved.pathname}${resolved.search}${resolved.hash}` : null;
}

/** The push's text as a notice, or null for anything else: a push is exactly {title, tag, url}. */
export function parsePushNotice(text: string | null | undefined): PushNotice | null {
  if (!text) return null;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const { title, tag, url } = data as Record<string, unknown>;
  const path = appPath(url);
  if (typeof title !== 'string' || !TITLES.includes(title) || typeof tag !== 'string' || !tag || !path) {
    return null;
  }
  return { title: title as PushNotice['title'], tag, url: path };
}

/**
 * A push from the server: shown as a notice unless a tab of the app is in view, which shows its own
 * notice of the same event (worker/sync/system-notices.ts), so a child never gets both. The tag is
 * the conversation's, as the tabs' notices have: a push and a tab's notice of one conversation
 * replace each other. `renotify`: a replacing notice is a new event (your turn after a message), so
 * the phone tells of it again. No body and no icon: the title is all a lock screen shows.
 * Answers whether a notice was shown.
 */
export async function showPushNotice(scope: PushScope, text: string | null | undefined): Promise<boolean> {
  const notice = parsePushNotice(text);
  if (!notice) return false;
  const windows = await scope.clients.matchAll({ type: 'window', includeUncontrolled: true });
  if (windows.some((client) => client.visibilityState === 'visible')) return false;
  // `renotify` is the standard's and Chromium's, but no longer in TypeScript's DOM types.
  const options: NotificationOptions & { renotify: boolean } = {
    tag: notice.tag,
    data: { url: notice.url },
    renotify: true,
  };
  await scope.registration.showNotification(notice.title, options);
  return true;
}

/** What the click handler needs of the scope. */
export interface ClickScope {
  clients: Pick<Clients, 'matchAll' | 'openWindow'>;
}

/**
 * A click on a notice (a tab's or a push's) opens its chat or thread: in an open tab of the app,
 * which moves there without a reload (src/pwa/notice-clicks.tsx), else in a new window. Answers
 * where it went: 'tab', 'window', or null for a notice that leads nowhere of the app.
 */
export async function openNotice(scope: ClickScope, data: unknown): Promise<'tab' | 'window' | null> {
  const url = appPath((data as { url?: unknown } | null)?.url);
  if (!url) return null;
  const windows = await scope.clients.matchAll({ type: 'window' });
  const tab = windows.find((client) => client.focused) ?? windows[0];
  if (!tab) {
    await scope.clients.openWindow(url);
    return 'window';
  }
  const message: OpenNoticeMessage = { type: 'open-notice', url };
  tab.postMessage(message);
  await tab.focus().catch(() => undefined);
  return 'tab';
}
