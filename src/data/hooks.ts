import { useLiveQuery } from 'dexie-react-hooks';
import type { ProfileRow } from '../../worker/client/db.ts';
import { useDb } from './data-context.tsx';

/** The signed-in user's profile, or undefined while loading or signed out. */
export function useProfile(): ProfileRow | undefined {
  const db = useDb();
  return useLiveQuery(() => db.profile.get('current'), [db]);
}

/** Unprocessed notifications (the header dot). */
export function useNotificationCount(): number {
  const db = useDb();
  return useLiveQuery(() => db.runtime.get('current'), [db])?.notificationCount ?? 0;
}
