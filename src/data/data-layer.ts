import { liveQuery } from 'dexie';
import { DataConnection } from '../../worker/client/data-connection.ts';
import type { PortalDb } from '../../worker/client/db.ts';
import { pushWanted } from '../../worker/client/push-wanted.ts';
import { sessionOf, type Session } from '../../worker/client/session-peek.ts';

/**
 * The data layer: the connection to the data worker (the Comlink bridge) and the Dexie database the
 * pages read with live queries. No part of the first screen: a signed-out start page is drawn
 * without it (src/data/data-context.tsx loads it once that page is idle, or at once for a signed-in
 * user, whose first screen reads the database).
 */
export function openDataConnection(): DataConnection {
  return new DataConnection();
}

/** The session row of `db` as the data worker writes it; returns the stop. */
export function watchSession(db: PortalDb, onChange: (session: Session) => void): () => void {
  const subscription = liveQuery(() => db.session.get('current')).subscribe({
    next: (row) => onChange(sessionOf(row)),
    error: (error: unknown) => console.error('Session not read', error),
  });
  return () => subscription.unsubscribe();
}

/**
 * Whether the child signed in said 'Ja, tack' on this browser (`pushWanted`), as it changes: the
 * profile arrives after the session at a sign-in; returns the stop.
 */
export function watchPushWanted(db: PortalDb, onChange: (wanted: boolean) => void): () => void {
  const subscription = liveQuery(() => pushWanted(db)).subscribe({
    next: onChange,
    error: (error: unknown) => console.error('Notice answer not read', error),
  });
  return () => subscription.unsubscribe();
}
