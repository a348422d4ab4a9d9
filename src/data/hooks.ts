import { useLiveQuery } from 'dexie-react-hooks';
import type { AuthStatus, SignOutReason } from '../../worker/client/api.ts';
import type { ProfileRow } from '../../worker/client/db.ts';
import { useData } from './data-context.tsx';

export interface Session {
  /** 'unknown' until the session row has been read (see useSession). */
  status: AuthStatus;
  signOutReason?: SignOutReason;
}

const UNKNOWN: Session = { status: 'unknown' };
const NEVER_SIGNED_IN: Session = { status: 'anonymous' };

/**
 * The session as the worker last wrote it. Until the database has been read: 'unknown'. A database
 * without a session row has never held a session on this device (the worker writes the row at its
 * first start and never deletes it), so the signed-out start page shows at once instead of waiting
 * for the worker to boot (issue 15: the first screen of a first visit); the worker's row follows.
 */
export function useSession(): Session {
  const { db } = useData();
  const row = useLiveQuery(async () => (await db.session.get('current')) ?? null, [db]);
  if (row === undefined) return UNKNOWN;
  if (row === null) return NEVER_SIGNED_IN;
  return { status: row.status, signOutReason: row.signOutReason };
}

/** The signed-in user's profile, or undefined while loading or signed out. */
export function useProfile(): ProfileRow | undefined {
  const { db } = useData();
  return useLiveQuery(() => db.profile.get('current'), [db]);
}

/** Unprocessed notifications (the header dot). */
export function useNotificationCount(): number {
  const { db } = useData();
  return useLiveQuery(() => db.runtime.get('current'), [db])?.notificationCount ?? 0;
}
