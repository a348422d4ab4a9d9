import * as Comlink from 'comlink';
import { BROADCAST_CHANNEL, type WorkerApi, type WorkerBroadcast } from './api.ts';
import { BUILD_ID } from './build-id.ts';
import { PortalDb } from './db.ts';

export interface WorkerConnection {
  api: Comlink.Remote<WorkerApi>;
  db: PortalDb;
  tabId: string;
}

/** The lock a tab holds for its whole life; the worker learns the tab is gone when it becomes free. */
export const tabLockName = (tabId: string) => `portal-tab-${tabId}`;

const RELOAD_GUARD_KEY = 'portal-build-reload';
/** A second build-mismatch reload this soon after the first would be a loop: stay on the page. */
const RELOAD_GUARD_MS = 30_000;

/**
 * Starts (or joins) the data worker and returns the Comlink proxy, the Dexie database the UI reads with
 * live queries and this tab's id. Call once per page load.
 */
export function connectWorker(): WorkerConnection {
  const tabId = crypto.randomUUID();
  // Requested before the worker hears of this tab, so the worker's own request for the same lock
  // queues behind it and is granted only once the tab is closed.
  const locked = holdTabLock(tabId);
  let endpoint: Comlink.Endpoint;
  if (typeof SharedWorker === 'function') {
    // Vite only bundles the worker when `new URL(..., import.meta.url)` is written inline here.
    const worker = new SharedWorker(new URL('../entry.ts', import.meta.url), {
      type: 'module',
      name: 'portal-data',
    });
    endpoint = worker.port;
  } else {
    endpoint = new Worker(new URL('../entry.ts', import.meta.url), { type: 'module' });
  }
  const api = Comlink.wrap<WorkerApi>(endpoint);
  const db = new PortalDb();

  const events = new BroadcastChannel(BROADCAST_CHANNEL);
  events.addEventListener('message', (e: MessageEvent<WorkerBroadcast>) => {
    // A worker of this same (now old) build asks its tabs to reload; tabs of the new build stay.
    if (e.data.type === 'reload' && (e.data.buildId === undefined || e.data.buildId === BUILD_ID)) {
      reloadOnce();
    }
  });

  void locked
    .then(() => api.hello(BUILD_ID, tabId))
    .then((answer) => {
      if (!answer.ok) reloadOnce();
    })
    .catch((error: unknown) => console.error('Data worker handshake failed', error));

  return { api, db, tabId };
}

function holdTabLock(tabId: string): Promise<void> {
  if (!navigator.locks) return Promise.resolve();
  return new Promise<void>((acquired) => {
    void navigator.locks.request(tabLockName(tabId), () => {
      acquired();
      // Never resolves: the lock is released by the browser when the tab goes away.
      return new Promise<never>(() => undefined);
    });
  });
}

function reloadOnce() {
  const last = Number(sessionStorage.getItem(RELOAD_GUARD_KEY) ?? 0);
  if (Date.now() - last < RELOAD_GUARD_MS) return;
  sessionStorage.setItem(RELOAD_GUARD_KEY, String(Date.now()));
  location.reload();
}
