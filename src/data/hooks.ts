import { useLiveQuery } from 'dexie-react-hooks';
import type { AuthStatus, SignOutReason } from '../../worker/client/api.ts';
import type { ProfileRow } from '../../worker/client/db.ts';
import { useData } from './data-context.tsx';

export interface Session {
  /** 'unknown' until the worker has written the first session row. */
  status: AuthStatus;
  signOutReason?: SignOutReason;
}

const UNKNOWN: Session = { status: 'unknown' };

export function useSession(): Session {
  const { db } = useData();
  const row = useLiveQuery(() => db.session.get('current'), [db]);
  if (!row) return UNKNOWN;
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
