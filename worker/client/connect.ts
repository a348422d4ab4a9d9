import { BROADCAST_CHANNEL, type WorkerBroadcast, type WorkerCommands } from './api.ts';
import { BUILD_ID } from './build-id.ts';
import { PortalDb } from './db.ts';
import { showSystemNotice } from './system-notice.ts';
import { WorkerBridge, type StartedWorker } from './worker-bridge.ts';

export interface WorkerConnection {
  /** The worker's commands; the connection survives a worker that dies (see WorkerBridge). */
  api: WorkerCommands;
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
  // Every worker is told whether this tab is visible (for system notifications), also a new one.
  const reportVisibility = () =>
    void bridge.api
      .tabVisibility(tabId, document.visibilityState === 'visible')
      .catch((error: unknown) => console.error('tabVisibility failed', error));
  const bridge: WorkerBridge = new WorkerBridge({
    tabId,
    locked,
    start: startWorker,
    onHello: (answer) => {
      if (!answer.ok) reloadOnce();
      else reportVisibility();
    },
  });
  const api = bridge.api;
  const db = new PortalDb();
  document.addEventListener('visibilitychange', reportVisibility);

  const events = new BroadcastChannel(BROADCAST_CHANNEL);
  events.addEventListener('message', (e: MessageEvent<WorkerBroadcast>) => {
    // A worker of this same (now old) build asks its tabs to reload; tabs of the new build stay.
    if (e.data.type === 'reload' && (e.data.buildId === undefined || e.data.buildId === BUILD_ID)) {
      reloadOnce();
    }
    if (e.data.type === 'system-notice' && e.data.tabId === tabId) {
      showSystemNotice(e.data.notice).catch((error: unknown) => console.error('Notice not shown', error));
    }
  });

  return { api, db, tabId };
}

/** Starts the data worker, or joins the one other tabs share; `onError` hears it fail. */
function startWorker(onError: () => void): StartedWorker {
  if (typeof SharedWorker === 'function') {
    // Vite only bundles the worker when `new URL(..., import.meta.url)` is written inline here.
    const worker = new SharedWorker(new URL('../entry.ts', import.meta.url), {
      type: 'module',
      name: 'portal-data',
    });
    worker.addEventListener('error', onError);
    return { endpoint: worker.port, close: () => worker.port.close() };
  }
  const worker = new Worker(new URL('../entry.ts', import.meta.url), { type: 'module' });
  worker.addEventListener('error', onError);
  return { endpoint: worker, close: () => worker.terminate() };
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
