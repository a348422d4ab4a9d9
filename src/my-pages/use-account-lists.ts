import { useLiveQuery } from 'dexie-react-hooks';
import type { ContactMessageRow, NotificationRow } from '../../worker/client/account.ts';
import type { LoadOutcome } from '../../worker/client/result.ts';
import { useApi, useDb } from '../data/index.ts';
import { useLoadWhenBack } from '../data/live-queries.ts';

/** The notifications, newest first, loaded on mount and kept fresh by the worker. */
export function useNotifications(): { rows: NotificationRow[] | undefined; result: LoadOutcome | null } {
  const api = useApi();
  const db = useDb();
  const result = useLoadWhenBack(() => api.loadNotifications());
  const rows = useLiveQuery(
    async () => (await db.notifications.toArray()).sort((a, b) => b.createdDate.localeCompare(a.createdDate)),
    [db],
  );
  return { rows, result };
}

/** The active contact messages, newest first. */
export function useContactMessages(): { rows: ContactMessageRow[] | undefined; result: LoadOutcome | null } {
  const api = useApi();
  const db = useDb();
  const result = useLoadWhenBack(() => api.loadContactMessages());
  const rows = useLiveQuery(
    async () =>
      (await db.contactMessages.toArray()).sort((a, b) => b.MessageDate.localeCompare(a.MessageDate)),
    [db],
  );
  return { rows, result };
}
