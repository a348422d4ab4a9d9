import { trustedScriptUrl } from '../../client-kit/security/trusted-types.ts';
// The built worker's address (Vite bundles it); the constructor gets it as a Trusted Types URL.
import workerUrl from '../entry.ts?worker&url';
import { BROADCAST_CHANNEL, type WorkerBroadcast, type WorkerCommands } from './api.ts';
import { BUILD_ID } from './build-id.ts';
import { PortalDb } from './db.ts';
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
  const bridge = new WorkerBridge({
    tabId,
    locked,
    start: startWorker,
    onHello: (answer) => {
      if (!answer.ok) reloadOnce();
    },
  });
  const api = bridge.api;
  const db = new PortalDb();

  const events = new BroadcastChannel(BROADCAST_CHANNEL);
  events.addEventListener('message', (e: MessageEvent<WorkerBroadcast>) => {
    // A worker of this same (now old) build asks its tabs to reload; tabs of the new build stay.
    if (e.data.type === 'reload' && (e.data.buildId === undefined || e.data.buildId === BUILD_ID)) {
      reloadOnce();
    }
  });

  return { api, db, tabId };
}

/** Starts the data worker, or joins the one other tabs share; `onError` hears it fail. */
function startWorker(onError: () => void): StartedWorker {
  if (typeof SharedWorker === 'function') {
    const worker = new SharedWorker(trustedScriptUrl(workerUrl), {
      type: 'module',
      name: 'portal-data',
    });
    worker.addEventListener('error', onError);
    return { endpoint: worker.port, close: () => worker.port.close() };
  }
  const worker = new Worker(trustedScriptUrl(workerUrl), { type: 'module' });
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
