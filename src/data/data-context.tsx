import {
  createContext,
  startTransition,
  use,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import type { WorkerCommands } from '../../worker/client/api.ts';
import type { PortalDb } from '../../worker/client/db.ts';
import { peekSession, type Session } from '../../worker/client/session-peek.ts';
import type { StorageMode } from '../../worker/client/storage-mode.ts';
import { preloadDataLayerParts } from '../ui-kit/lazy-pages.ts';
import { whenIdle } from '../ui-kit/when-idle.ts';
import {
  connectData,
  dataLayerState,
  deferredApi,
  firstDatabase,
  loadDataLayer,
} from './load-data-layer.ts';

export type { Session } from '../../worker/client/session-peek.ts';

export interface DataAccess {
  api: WorkerCommands;
  db: PortalDb;
}

interface DataContextValue {
  /** The worker's commands; before the data layer is in, each call fetches it first. */
  api: WorkerCommands;
  /** 'unknown' until it is known; 'authenticated' only once the data layer is in. */
  session: Session;
  /** The database the pages read with live queries; null until the data layer is in (see useDb). */
  db: PortalDb | null;
  /** Shared-device mode: the session lives in memory only and ends after 15 idle minutes. */
  inMemory: boolean;
  /** The data layer's code did not arrive: nothing past the first screen can work (a reload may). */
  failed: boolean;
  /** A sign-in's choice of where the session is kept (shared-device mode: memory only). */
  chooseStorage(mode: StorageMode): Promise<DataAccess>;
}

const UNKNOWN: Session = { status: 'unknown' };

const DataContext = createContext<DataContextValue | null>(null);

let peeked: Promise<Session> | undefined;

/**
 * The session row as the data worker last wrote it, read without the data layer (session-peek.ts);
 * started once per page load, by the entry before React's first render. Where the first screen needs
 * the data layer (anything but signed out), its code is fetched the moment the row is read, beside
 * that render rather than after it.
 */
export function firstSessionPeek(): Promise<Session> {
  peeked ??= peekSession().then((session) => {
    // A failure is kept in dataLayerState (the app then offers a reload).
    if (session.status !== 'anonymous') connectData().catch(() => undefined);
    return session;
  });
  return peeked;
}

/** Gives pages the worker's commands, the session and the database; tests pass their own `value`. */
export function DataProvider({ children, value }: { children: ReactNode; value?: DataAccess }) {
  return value ? (
    <GivenProvider value={value}>{children}</GivenProvider>
  ) : (
    <ConnectedProvider>{children}</ConnectedProvider>
  );
}

const sameSession = (a: Session, b: Session) => a.status === b.status && a.signOutReason === b.signOutReason;

/** The session row of `db`, as it changes; undefined until it was read. */
function useLiveSession(db: PortalDb | null): Session | undefined {
  const [live, setLive] = useState<{ db: PortalDb; session: Session } | null>(null);
  useEffect(() => {
    if (!db) return;
    let stop: (() => void) | undefined;
    let current = true;
    void loadDataLayer().then((layer) => {
      if (current)
        stop = layer.watchSession(db, (session) =>
          // The worker writes the row again at every authentication check: only a change renders.
          setLive((last) => (last?.db === db && sameSession(last.session, session) ? last : { db, session })),
        );
    });
    return () => {
      current = false;
      stop?.();
    };
  }, [db]);
  return live && live.db === db ? live.session : undefined;
}

function GivenProvider({ children, value }: { children: ReactNode; value: DataAccess }) {
  const session = useLiveSession(value.db) ?? UNKNOWN;
  const context = useMemo(
    () => ({ ...value, session, inMemory: false, failed: false, chooseStorage: async () => value }),
    [value, session],
  );
  return <DataContext.Provider value={context}>{children}</DataContext.Provider>;
}

const noConnection = () => () => undefined;

/**
 * The app's own: the first screen is drawn from the session row alone (peeked without the data
 * layer); the layer is fetched at once where that screen needs it (a signed-in user, a session in
 * memory, a row that could not be read) and otherwise once the signed-out page is idle, or at the
 * first command.
 */
function ConnectedProvider({ children }: { children: ReactNode }) {
  const [peek, setPeek] = useState<Session | null>(null);
  const { connection, failed } = useSyncExternalStore(
    dataLayerState.subscribe,
    dataLayerState.get,
    dataLayerState.get,
  );

  useEffect(() => {
    let current = true;
    void firstSessionPeek().then((session) => current && startTransition(() => setPeek(session)));
    return () => {
      current = false;
    };
  }, []);

  // Signed out, the data layer comes once the page is idle (signed in, firstSessionPeek fetched it).
  useEffect(() => {
    if (peek?.status === 'anonymous') return whenIdle(() => void connectData().catch(() => undefined));
  }, [peek]);

  // However the layer came (at boot, when idle, for a command), what comes in its chunk is ready.
  useEffect(() => {
    if (connection) preloadDataLayerParts();
  }, [connection]);

  const active = useSyncExternalStore(
    connection?.subscribe ?? noConnection,
    () => connection?.current() ?? null,
    () => null,
  );
  const live = useLiveSession(active?.db ?? null);
  const session = live ?? (peek?.status === 'anonymous' ? peek : UNKNOWN);
  const chooseStorage = useCallback(async (mode: StorageMode) => (await connectData()).choose(mode), []);
  const value = useMemo<DataContextValue>(
    () => ({
      api: active?.api ?? deferredApi,
      session,
      db: active?.db ?? null,
      inMemory: active?.inMemory ?? false,
      failed,
      chooseStorage,
    }),
    [active, session, failed, chooseStorage],
  );
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

/** The session as the worker last wrote it (see DataContextValue.session). */
export function useSession(): Session {
  return useData().session;
}

/**
 * The database the pages read with live queries. A component that renders before the data layer
 * is in (a signed-out page's part that reads cached public content) suspends until it is.
 */
export function useDb(): PortalDb {
  const { db } = useData();
  return db ?? use(firstDatabase());
}
