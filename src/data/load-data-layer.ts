import type { WorkerCommands } from '../../worker/client/api.ts';
import type { DataConnection } from '../../worker/client/data-connection.ts';
import type { PortalDb } from '../../worker/client/db.ts';
import type * as DataLayerModule from './data-layer.ts';

type DataLayer = typeof DataLayerModule;

let layer: Promise<DataLayer> | undefined;
let connecting: Promise<DataConnection> | undefined;

/** Where the page's data layer stands: not fetched (or on its way), connected, or failed to arrive. */
export type DataLayerState = { connection: DataConnection | null; failed: boolean };

let state: DataLayerState = { connection: null, failed: false };
const listeners = new Set<() => void>();

function settle(next: DataLayerState) {
  state = next;
  for (const listener of listeners) listener();
}

/** For useSyncExternalStore: the data layer's state, and its changes. */
export const dataLayerState = {
  get: (): DataLayerState => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/** The data layer's code, fetched once per page load (a failure stays: the app offers a reload). */
export function loadDataLayer(): Promise<DataLayer> {
  layer ??= import('./data-layer.ts');
  return layer;
}

/** The page's one connection to the data worker, opened with the data layer's code. */
export function connectData(): Promise<DataConnection> {
  connecting ??= loadDataLayer().then(
    (l) => {
      const connection = l.openDataConnection();
      settle({ connection, failed: false });
      return connection;
    },
    (error: unknown) => {
      console.error('The data layer did not load', error);
      settle({ connection: null, failed: true });
      throw error;
    },
  );
  return connecting;
}

let firstDb: Promise<PortalDb> | undefined;

/** The database of the first connection (for a component that reads it before the layer was in). */
export function firstDatabase(): Promise<PortalDb> {
  firstDb ??= connectData()
    .then((c) => c.whenCurrent())
    .then((c) => c.db);
  return firstDb;
}

/**
 * The worker's commands before the data layer is in: each call fetches the layer (once) and goes
 * to the connection of the current storage mode. The start page's buttons work from the first
 * screen on, without the layer's code on the page's critical path.
 */
export const deferredApi: WorkerCommands = new Proxy({} as WorkerCommands, {
  // 'then' stays undefined so that the object is not mistaken for a promise.
  get: (_, name) =>
    typeof name === 'string' && name !== 'then'
      ? async (...args: unknown[]) => {
          const { api } = await (await connectData()).whenCurrent();
          return (api[name as keyof WorkerCommands] as (...a: unknown[]) => Promise<unknown>)(...args);
        }
      : undefined,
});
