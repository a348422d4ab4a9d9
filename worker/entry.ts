import { LOCKS, webLocks } from './base/web-locks.ts';
import * as Comlink from 'comlink';
import { AuthDb, DEVICE_DB, DexieStateStore } from './auth/user-store.ts';
import { AtRestKey } from './base/at-rest.ts';
import { privateKeyFile, removeKeyFile } from './base/at-rest-key.ts';
import { canShredInPlace, shredInPlace } from './key-file/shred-in-place.ts';
import { eraseDiskData, moveLegacyRows } from './local-data.ts';
import type { PortalWorkerDeps } from './portal-worker-deps.ts';
import {
  BROADCAST_CHANNEL,
  COMMAND_NAMES,
  TAB_HOLDS,
  type WorkerApi,
  type WorkerBroadcast,
  type WorkerCommands,
} from './client/api.ts';
import { BUILD_ID } from './base/build-id.ts';
import { ok } from './base/result.ts';
import { PortalDb } from './base/db.ts';
import {
  MEMORY_AUTH_NAME,
  MEMORY_DATA_NAME,
  MEMORY_WORKER_NAME,
  memoryIndexedDb,
  publishMirror,
} from './base/memory-mirror.ts';
import { delay, noLock, systemClock, type WithLock } from './clock.ts';
import { loadRuntimeConfig } from './config.ts';
import { PortalWorker, type PeerMessage } from './portal-worker.ts';
import { BUILD_CHANNEL, watchBuilds } from './tabs/build-watch.ts';
import { TabRegistry, tabLockReleased } from './tabs/tab-registry.ts';

/**
 * Browser glue only: picks shared or dedicated mode, wires BroadcastChannels, Web Locks and
 * `online` events to the testable core in portal-worker.ts, and exposes the Comlink API.
 */

interface ConnectEvent extends MessageEvent {
  readonly ports: readonly MessagePort[];
}
interface WorkerScope {
  location: { origin: string };
  addEventListener(type: 'connect', listener: (event: ConnectEvent) => void): void;
  addEventListener(type: 'online' | 'offline', listener: () => void): void;
}

const scope = globalThis as unknown as WorkerScope;
// Only a SharedWorkerGlobalScope has `onconnect`; a dedicated worker's global does not.
const isShared = 'onconnect' in globalThis;
/**
 * Shared-device mode (a worker started under MEMORY_WORKER_NAME): nothing on disk, one worker per
 * session (the SharedWorker of that name, or without SharedWorker each tab's own), alone: it takes
 * no part in the disk workers' hub election.
 */
const workerName = (globalThis as { name?: string }).name ?? '';
const inMemory = workerName.startsWith(MEMORY_WORKER_NAME);
const PEER_CHANNEL = 'portal-worker-peers';

const forever = () => new Promise<never>(() => undefined);
const locks = webLocks();
const webLock: WithLock = locks
  ? <T>(name: string, fn: () => Promise<T>) => locks.request(name, fn) as Promise<T>
  : noLock;

const events = new BroadcastChannel(BROADCAST_CHANNEL);
const broadcast = (message: WorkerBroadcast) => events.postMessage(message);

/** Started offline, the worker waits for the config instead of failing every command for good. */
async function loadConfigPatiently(origin: string) {
  for (let wait = 1000; ; wait = Math.min(wait * 2, 30_000)) {
    try {
      return await loadRuntimeConfig(origin);
    } catch (error) {
      console.warn('config.json not loaded; trying again', error);
      await delay(systemClock, wait);
    }
  }
}

/** How long a SharedWorker waits for a tab to shred the key before it removes the file itself. */
const TAB_SHRED_WAIT_MS = 3_000;

/**
 * Shreds the at-rest key from a SharedWorker, which has no sync access handle: every tab's shredder
 * is asked (worker/client/key-shredder.ts; the first to answer has done it, the others then find
 * nothing), and where none answers in time the file is removed from here, which at least leaves it
 * in no file of the profile.
 */
function shredThroughTabs(root: FileSystemDirectoryHandle): Promise<void> {
  const id = crypto.randomUUID();
  return new Promise<void>((resolve) => {
    const done = (shredded: boolean) => {
      clearTimeout(timer);
      events.removeEventListener('message', onAnswer);
      if (shredded) resolve();
      else
        removeKeyFile(root)
          .catch((error: unknown) => console.error('At-rest key not removed', error))
          .finally(resolve);
    };
    const onAnswer = (event: MessageEvent<WorkerBroadcast>) => {
      if (event.data.type === 'key-shredded' && event.data.id === id && event.data.ok) done(true);
    };
    const timer = setTimeout(() => done(false), TAB_SHRED_WAIT_MS);
    events.addEventListener('message', onAnswer);
    broadcast({ type: 'shred-key', id });
  });
}

/**
 * The worker's databases: on disk, sealed at rest, and deleted with the key at sign-out; or in
 * memory with a copy published to the tabs (nothing on disk to seal or delete).
 */
type LocalData = Pick<PortalWorkerDeps, 'deviceStore' | 'eraseLocalData' | 'allowLocalData'>;

async function openDatabases(): Promise<{ db: PortalDb; auth: AuthDb; local?: LocalData }> {
  if (!inMemory) {
    // A dedicated worker overwrites the key in place itself; a SharedWorker asks its tabs to.
    const key = new AtRestKey(privateKeyFile(canShredInPlace() ? shredInPlace : shredThroughTabs));
    const db = new PortalDb(undefined, undefined, key);
    const auth = new AuthDb(undefined, undefined, key);
    // Rows sealed under the last design's key (in IndexedDB) are sealed again under the file's.
    if (await key.hasLegacy()) await moveLegacyRows(key, [db, auth]);
    return {
      db,
      auth,
      local: {
        deviceStore: new DexieStateStore(new AuthDb(DEVICE_DB)),
        eraseLocalData: () => eraseDiskData(key, [db, auth], systemClock),
        allowLocalData: () => key.allowNewKey(),
      },
    };
  }
  const db = new PortalDb(MEMORY_DATA_NAME, await memoryIndexedDb());
  // Before anything reads or writes it: the tabs' copies must see every change.
  publishMirror(db, new BroadcastChannel(workerName));
  return { db, auth: new AuthDb(MEMORY_AUTH_NAME, await memoryIndexedDb()) };
}

async function boot(): Promise<PortalWorker> {
  const origin = scope.location.origin;
  const { db, auth, local } = await openDatabases();
  const config = await loadConfigPatiently(origin);
  const peers = new BroadcastChannel(inMemory ? `${workerName}-peers` : PEER_CHANNEL);
  const worker = new PortalWorker({
    config,
    origin,
    db,
    userStore: new DexieStateStore(auth),
    ...local,
    fetch: (input, init) => fetch(input, init),
    clock: systemClock,
    withLock: webLock,
    broadcast,
    ...(isShared || inMemory ? {} : { notifyPeers: (message: PeerMessage) => peers.postMessage(message) }),
  });
  peers.addEventListener('message', (e: MessageEvent<PeerMessage>) => void worker.onPeerMessage(e.data));
  scope.addEventListener('online', () => void worker.onOnline(true));
  scope.addEventListener('offline', () => void worker.onOnline(false));
  void worker.onOnline(navigator.onLine);
  watchBuilds(new BroadcastChannel(BUILD_CHANNEL), BUILD_ID, () => {
    void worker.retire();
    broadcast({ type: 'reload', reason: 'new-build', buildId: BUILD_ID });
  });

  if (isShared || inMemory) {
    await worker.start(true);
    return worker;
  }
  // Dedicated fallback: the first worker to get the lock holds the hub; the others queue for it and
  // one of them takes over when the leader's tab closes (its lock is then released).
  if (!locks) {
    await worker.start(true);
    return worker;
  }
  const leader = await new Promise<boolean>((resolve) => {
    void locks.request(LOCKS.hubLeader, { ifAvailable: true }, (lock) => {
      resolve(lock !== null);
      return lock ? forever() : undefined;
    });
  });
  await worker.start(leader);
  if (!leader) {
    void locks.request(LOCKS.hubLeader, async () => {
      await worker.becomeRunner();
      return forever();
    });
  }
  return worker;
}

const ready = boot();
ready.catch((error: unknown) => console.error('Data worker failed to start', error));

/** A tab's hold of an entity subscription, beside its open group chats and threads. */
const ENTITY_HOLD = 'subscribe';
const holdKey = (command: string, id: string | number) => `${command}:${id}`;

const tabs = new TabRegistry(
  // A gone tab's holds are closed for it; an entity only once no other tab wants it.
  (key) => {
    const separator = key.indexOf(':');
    const command = key.slice(0, separator);
    const id = key.slice(separator + 1);
    void ready.then(async (worker) => {
      if (command === ENTITY_HOLD) {
        if (!tabs.isHeld(key)) await worker.commands.unsubscribe(id);
        return;
      }
      const close = TAB_HOLDS[command as keyof typeof TAB_HOLDS];
      await worker.commands[close](Number(id));
    });
  },
  // Without Web Locks a closed tab cannot be noticed: its holds stay until the worker ends.
  locks ? (tabId: string) => tabLockReleased(locks, tabId) : () => new Promise<void>(() => undefined),
  (tabId) => void ready.then((worker) => worker.notices.tabGone(tabId)),
);

/**
 * One API object per connected tab, so subscriptions and group chats are counted per tab. Every
 * command waits for the started worker and runs as its module declared it; the few that depend on
 * the tab are wrapped here.
 */
function apiFor(): WorkerApi {
  let tabId = '';
  const command =
    <K extends keyof WorkerCommands>(name: K) =>
    async (...args: Parameters<WorkerCommands[K]>) =>
      ((await ready).commands[name] as (...a: typeof args) => ReturnType<WorkerCommands[K]>)(...args);
  const commands = Object.fromEntries(
    COMMAND_NAMES.map((name) => [name, command(name)]),
  ) as unknown as WorkerCommands;
  return {
    ...commands,
    async hello(buildId, id) {
      tabId = id;
      tabs.add(id);
      return { buildId: BUILD_ID, ok: buildId === BUILD_ID };
    },
    // Counted per tab as well, so a tab closed with a chat or thread open still closes it.
    async openGroupChat(id) {
      tabs.hold(tabId, holdKey('openGroupChat', id));
      return commands.openGroupChat(id);
    },
    async closeGroupChat(id) {
      return tabs.release(tabId, holdKey('openGroupChat', id)) ? commands.closeGroupChat(id) : ok(undefined);
    },
    async openConversation(id) {
      tabs.hold(tabId, holdKey('openConversation', id));
      return commands.openConversation(id);
    },
    async closeConversation(id) {
      const held = tabs.release(tabId, holdKey('openConversation', id));
      return held ? commands.closeConversation(id) : ok(undefined);
    },
    async subscribe(key, mode) {
      tabs.hold(tabId, holdKey(ENTITY_HOLD, key));
      return commands.subscribe(key, mode);
    },
    async unsubscribe(key) {
      // The hub drops the entity only when no other tab still wants it.
      if (!tabs.has(tabId)) return commands.unsubscribe(key);
      tabs.release(tabId, holdKey(ENTITY_HOLD, key));
      return tabs.isHeld(holdKey(ENTITY_HOLD, key)) ? ok(undefined) : commands.unsubscribe(key);
    },
  };
}

if (isShared) {
  scope.addEventListener('connect', (event) => {
    const port = event.ports[0];
    if (port) Comlink.expose(apiFor(), port);
  });
} else {
  Comlink.expose(apiFor());
}
