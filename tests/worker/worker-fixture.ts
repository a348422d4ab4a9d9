import 'fake-indexeddb/auto';
import { HttpTransportType } from '@microsoft/signalr';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { AuthDb, DexieStateStore } from '../../worker/auth/user-store.ts';
import type { WorkerBroadcast } from '../../worker/client/api.ts';
import { AtRestKey } from '../../worker/base/at-rest.ts';
import { PortalDb } from '../../worker/base/db.ts';
import { eraseDiskData } from '../../worker/local-data.ts';
import { systemClock, noLock, type Clock } from '../../worker/clock.ts';
import { loadRuntimeConfig } from '../../worker/config.ts';
import { PortalWorker } from '../../worker/portal-worker.ts';
import type { VariantFeatures } from '../../contract/variant.ts';
import { startTestServer, type TestServer } from '../../harness/test-server.ts';
import { uniqueName } from './helpers.ts';
import { MemoryKeyFile } from './memory-key-file.ts';

export interface WorkerFixture {
  worker: PortalWorker;
  db: PortalDb;
  authDb: AuthDb;
  /** The at-rest key both databases are sealed with, and the file it is kept in. */
  atRest: AtRestKey;
  keyFile: MemoryKeyFile;
  broadcasts: WorkerBroadcast[];
  /** The device's own store (what outlives a sign-out), beside `db` and `authDb`. */
  deviceDb: AuthDb;
  dispose(): Promise<void>;
}

/** The real worker core against the real test server, with its own databases. */
export async function createWorker(
  server: TestServer,
  options: {
    clock?: Clock;
    transport?: HttpTransportType;
    fetch?: typeof fetch;
    /** Another origin in front of the server (the fault proxy): every call and the hub go there. */
    origin?: string;
    requestTimeoutMs?: number;
    /**
     * A core started on the databases of another, as a new worker starts on what a dead one left;
     * that other fixture keeps them (this one's dispose only stops the core).
     */
    sameDataAs?: WorkerFixture;
    /** Another variant's features than the server's (which modules run, which events are heard). */
    features?: VariantFeatures;
  } = {},
): Promise<WorkerFixture> {
  // As on disk in the browser: sealed at rest, deleted with the key at sign-out.
  const same = options.sameDataAs;
  const keyFile = same?.keyFile ?? new MemoryKeyFile();
  const atRest = same?.atRest ?? new AtRestKey(keyFile, uniqueName('portal-key'));
  const db = same?.db ?? new PortalDb(uniqueName('portal-data'), undefined, atRest);
  const authDb = same?.authDb ?? new AuthDb(uniqueName('portal-auth'), undefined, atRest);
  const deviceDb = same?.deviceDb ?? new AuthDb(uniqueName('portal-device'));
  const broadcasts: WorkerBroadcast[] = [];
  const config = await loadRuntimeConfig(options.origin ?? server.url);
  const worker = new PortalWorker({
    config: options.features ? { ...config, features: options.features } : config,
    origin: options.origin ?? server.url,
    ...(options.requestTimeoutMs ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
    db,
    userStore: new DexieStateStore(authDb),
    deviceStore: new DexieStateStore(deviceDb),
    eraseLocalData: () => eraseDiskData(atRest, [db, authDb], systemClock),
    allowLocalData: () => atRest.allowNewKey(),
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    clock: options.clock ?? systemClock,
    withLock: noLock,
    broadcast: (message) => broadcasts.push(message),
    hub: { transport: options.transport ?? HttpTransportType.WebSockets },
  });
  return {
    worker,
    db,
    authDb,
    atRest,
    keyFile,
    broadcasts,
    deviceDb,
    async dispose() {
      await worker.retire();
      if (!same) await Promise.all([db.delete(), authDb.delete(), deviceDb.delete(), atRest.destroy()]);
    },
  };
}

export interface WorkerTestEnv {
  server: TestServer;
  /** Worker cores of the running test, disposed after each test. */
  fixtures: WorkerFixture[];
}

/**
 * One real server per test file, started with `options`. Registers the vitest hooks, so call it at
 * the top of the file; `server` is filled once `beforeAll` has run.
 */
export function useWorkerTestServer(options: Parameters<typeof startTestServer>[0] = {}): WorkerTestEnv {
  const env = { fixtures: [] } as unknown as WorkerTestEnv;
  beforeAll(async () => {
    env.server = await startTestServer(options);
  });
  afterEach(async () => {
    await Promise.all(env.fixtures.splice(0).map((f) => f.dispose()));
  });
  afterAll(async () => env.server?.dispose());
  return env;
}
