import { trustedScriptUrl } from '../../client-kit/security/trusted-types-policy.ts';
// The built worker's address (Vite bundles it); the constructor gets it as a Trusted Types URL.
import workerUrl from '../entry.ts?worker&url';
import { BROADCAST_CHANNEL, type WorkerBroadcast, type WorkerCommands } from './api.ts';
import { BUILD_ID } from '../base/build-id.ts';
import { AtRestKey } from '../base/at-rest.ts';
import { prepareKeyShredder, shredAtRestKey, tabKeyFile } from './key-shredder.ts';
import { holdExitHandle } from './quick-exit.ts';
import { storedMode } from './storage-mode.ts';
import { LOCKS, webLocks } from '../base/web-locks.ts';
import { PortalDb } from '../base/db.ts';
import { MEMORY_WORKER_NAME, followMirror } from '../base/memory-mirror.ts';
import { showSystemNotice } from './system-notice.ts';
import { WorkerBridge, type StartedWorker } from './worker-bridge.ts';

/** The performance mark of the worker's first answer to this page. */
export const WORKER_READY_MARK = 'portal:worker-ready';

/** The data worker that keeps its data on disk (the normal mode). */
const DISK_WORKER_NAME = 'portal-data';

export interface WorkerConnection {
  /** The worker's commands; the connection survives a worker that dies (see WorkerBridge). */
  api: WorkerCommands;
  db: PortalDb;
  tabId: string;
  /** Shared-device mode: the session is kept in memory only. */
  inMemory?: boolean;
}

const RELOAD_GUARD_KEY = 'portal-build-reload';
/** A second build-mismatch reload this soon after the first would be a loop: stay on the page. */
const RELOAD_GUARD_MS = 30_000;

/** This tab's id and the lock it holds for its whole life (one per page load). */
let identity: { tabId: string; locked: Promise<void> } | undefined;
function tabIdentity() {
  if (!identity) {
    const tabId = crypto.randomUUID();
    // Requested before the worker hears of this tab, so the worker's own request for the same lock
    // queues behind it and is granted only once the tab is closed.
    identity = { tabId, locked: holdTabLock(tabId) };
  }
  return identity;
}

/**
 * Starts (or joins) the data worker and returns the Comlink proxy, the Dexie database the UI reads with
 * live queries and this tab's id. Call once per page load.
 */
export function connectWorker(): WorkerConnection {
  const { api, tabId } = bridgeTo(DISK_WORKER_NAME);
  // The tab reads what the worker sealed with the same key (at-rest.ts); it never makes one. The
  // key is read now, beside the worker's start, not when the first sealed row is asked for.
  const key = new AtRestKey(tabKeyFile());
  void key.current();
  watchKey(key);
  // Started with the data layer, not at the quick exit: the exit then only posts to it.
  prepareKeyShredder();
  return { api, db: new PortalDb(undefined, undefined, key), tabId };
}

/**
 * The key's life as a tab sees it: a SharedWorker asks the tabs to shred it (it cannot itself), and
 * after a sign-out the copy this tab read is dropped (the next session has a key of its own).
 */
function watchKey(key: AtRestKey): void {
  const events = new BroadcastChannel(BROADCAST_CHANNEL);
  events.addEventListener('message', (e: MessageEvent<WorkerBroadcast>) => {
    const message = e.data;
    if (message.type === 'shred-key') {
      void shredAtRestKey().then((ok) =>
        events.postMessage({ type: 'key-shredded', id: message.id, ok } satisfies WorkerBroadcast),
      );
    }
    if (message.type === 'signed-out' || message.type === 'shred-key') key.forget();
  });
}

/**
 * Shared-device mode: joins the data worker that keeps the session in memory only, and an
 * in-memory copy of its database for the live queries (memory-mirror.ts). Rejects when no such
 * worker answers.
 */
export async function connectMemoryWorker(): Promise<WorkerConnection> {
  const { tabId } = tabIdentity();
  // Without SharedWorker each tab has a worker of its own, so a session of its own.
  const name = typeof SharedWorker === 'function' ? MEMORY_WORKER_NAME : `${MEMORY_WORKER_NAME}-${tabId}`;
  const { api } = bridgeTo(name);
  const db = await followMirror(new BroadcastChannel(name));
  return { api, db, tabId, inMemory: true };
}

/** Whether this tab shows the child's chat window open and not minimised (SPEC §2). */
let chatInView = false;
const chatReporters = new Set<() => void>();

/**
 * The chat window was opened, minimised or closed: every worker of this tab is told, so that a
 * counsellor's message raises a system notification while the chat is not in view, also in a
 * visible tab (worker/sync/system-notices.ts).
 */
export function reportChatInView(inView: boolean): void {
  if (inView === chatInView) return;
  chatInView = inView;
  for (const report of chatReporters) report();
}

function bridgeTo(workerName: string) {
  const { tabId, locked } = tabIdentity();
  // The worker is told whether this tab is visible and shows the chat (for system notifications);
  // both are standing commands, so the bridge tells a new worker the latest of each again.
  const reportVisibility = () =>
    void bridge.api
      .tabVisibility(tabId, document.visibilityState === 'visible')
      .catch((error: unknown) => console.error('tabVisibility failed', error));
  const reportChat = () =>
    void bridge.api
      .chatInView(tabId, chatInView)
      .catch((error: unknown) => console.error('chatInView failed', error));
  chatReporters.add(reportChat);
  const bridge: WorkerBridge = new WorkerBridge({
    tabId,
    locked,
    start: (onError) => startWorker(workerName, onError),
    onHello: (answer) => {
      if (!answer.ok) reloadOnce();
      else {
        // The first answer of this page's worker: what bench/cold-start.ts measures from.
        if (performance.getEntriesByName(WORKER_READY_MARK).length === 0) performance.mark(WORKER_READY_MARK);
        // What a quick exit sends as the page goes: asked of every worker (a new one after a dead one).
        void bridge.api
          .exitHandle()
          .then((result) => result.ok && holdExitHandle(result.value, { keep: storedMode() === 'disk' }));
      }
    },
  });
  // Sent once the worker answered the handshake (a call waits for it).
  reportVisibility();
  reportChat();
  document.addEventListener('visibilitychange', reportVisibility);
  watchReloads();
  return { api: bridge.api, tabId };
}

let reloadsWatched = false;
function watchReloads() {
  if (reloadsWatched) return;
  reloadsWatched = true;
  const events = new BroadcastChannel(BROADCAST_CHANNEL);
  events.addEventListener('message', (e: MessageEvent<WorkerBroadcast>) => {
    // A worker of this same (now old) build asks its tabs to reload; tabs of the new build stay.
    if (e.data.type === 'reload' && (e.data.buildId === undefined || e.data.buildId === BUILD_ID)) {
      reloadOnce();
    }
    // Kept across page loads on disk only (quick-exit.ts); shared-device mode writes nothing to disk.
    if (e.data.type === 'exit-handle') holdExitHandle(e.data.handle, { keep: storedMode() === 'disk' });
    if (e.data.type === 'signed-out') holdExitHandle(null, { keep: storedMode() === 'disk' });
    if (e.data.type === 'system-notice' && e.data.tabId === tabIdentity().tabId) {
      showSystemNotice(e.data.notice).catch((error: unknown) => console.error('Notice not shown', error));
    }
  });
}

/** Starts the data worker `name`, or joins the one other tabs share; `onError` hears it fail. */
function startWorker(name: string, onError: () => void): StartedWorker {
  if (typeof SharedWorker === 'function') {
    const worker = new SharedWorker(trustedScriptUrl(workerUrl), { type: 'module', name });
    worker.addEventListener('error', onError);
    return { endpoint: worker.port, close: () => worker.port.close() };
  }
  const worker = new Worker(trustedScriptUrl(workerUrl), { type: 'module', name });
  worker.addEventListener('error', onError);
  return { endpoint: worker, close: () => worker.terminate() };
}

function holdTabLock(tabId: string): Promise<void> {
  const locks = webLocks();
  if (!locks) return Promise.resolve();
  return new Promise<void>((acquired) => {
    void locks.request(LOCKS.tab(tabId), () => {
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
