import { createContext, useCallback, useContext, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import type { WorkerCommands } from '../../worker/client/api.ts';
import { DataConnection, type StorageMode } from '../../worker/client/data-connection.ts';
import type { PortalDb } from '../../worker/client/db.ts';

export interface DataAccess {
  api: WorkerCommands;
  db: PortalDb;
}

interface DataContextValue extends DataAccess {
  /** Shared-device mode: the session lives in memory only and ends after 15 idle minutes. */
  inMemory: boolean;
  /** A sign-in's choice of where the session is kept (shared-device mode: memory only). */
  chooseStorage(mode: StorageMode): Promise<DataAccess>;
}

const DataContext = createContext<DataContextValue | null>(null);

let connection: DataConnection | undefined;

/** One worker connection per page load, also under StrictMode's double rendering. */
function sharedConnection(): DataConnection {
  connection ??= new DataConnection();
  return connection;
}

/** Gives pages the worker's commands and the database they read; tests pass their own `value`. */
export function DataProvider({ children, value }: { children: ReactNode; value?: DataAccess }) {
  return value ? (
    <DataContext.Provider value={{ ...value, inMemory: false, chooseStorage: async () => value }}>{children}</DataContext.Provider>
  ) : (
    <ConnectedProvider>{children}</ConnectedProvider>
  );
}

function ConnectedProvider({ children }: { children: ReactNode }) {
  const data = sharedConnection();
  const current = useSyncExternalStore(data.subscribe, data.current);
  const chooseStorage = useCallback((mode: StorageMode) => data.choose(mode), [data]);
  const value = useMemo(
    () =>
      current ? { api: current.api, db: current.db, inMemory: current.inMemory ?? false, chooseStorage } : null,
    [current, chooseStorage],
  );
  // Joining a shared-device session (a moment): nothing rather than the signed-out state on disk.
  if (!value) return null;
  return <DataContext.Provider value={value}>{children}</DataContext.Provider>;
}

export function useData(): DataContextValue {
  const access = useContext(DataContext);
  if (!access) throw new Error('useData outside DataProvider');
  return access;
}

/** The data access where there is one (the quick exit is drawn also where none is given). */
export function useOptionalData(): DataContextValue | null {
  return useContext(DataContext);
}

/** The worker's commands (login, logout, caches, error reports). */
export function useApi(): WorkerCommands {
  return useData().api;
}
