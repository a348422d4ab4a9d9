import { createContext, use, type ReactNode } from 'react';
import type { WorkerCommands } from '../../worker/client/api.ts';
import type { PortalDb } from '../../worker/client/db.ts';
import { connectWorker, type WorkerConnection } from '../../worker/client/connect.ts';

export interface DataAccess {
  api: WorkerCommands;
  db: PortalDb;
}

const DataContext = createContext<DataAccess | null>(null);

let connection: WorkerConnection | undefined;

/** One worker connection per page load, also under StrictMode's double rendering. */
function sharedConnection(): WorkerConnection {
  connection ??= connectWorker();
  return connection;
}

/** Gives pages the worker's commands and the database they read; tests pass their own `value`. */
export function DataProvider({ children, value }: { children: ReactNode; value?: DataAccess }) {
  const access = value ?? sharedConnection();
  return <DataContext value={access}>{children}</DataContext>;
}

export function useData(): DataAccess {
  const access = use(DataContext);
  if (!access) throw new Error('useData outside DataProvider');
  return access;
}

/** The worker's commands (login, logout, caches, error reports). */
export function useApi(): WorkerCommands {
  return useData().api;
}
