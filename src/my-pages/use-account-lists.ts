import { useEffect, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { ContactMessageRow, NotificationRow } from '../../worker/client/account.ts';
import { outcomeOf, type LoadOutcome, type LoadResult } from '../../worker/client/result.ts';
import { useApi, useData } from '../data/index.ts';

/** Runs `load` once per mount; `null` until it answered. */
function useLoad(load: () => Promise<LoadResult>): LoadOutcome | null {
  const [result, setResult] = useState<LoadOutcome | null>(null);
  useEffect(() => {
    let current = true;
    load()
      .then((r) => current && setResult(outcomeOf(r)))
      .catch(() => current && setResult('failed'));
    return () => {
      current = false;
    };
    // Once per mount (the worker and the hub keep the list fresh afterwards), hence no deps.
  }, []);
  return result;
}

/** The notifications, newest first, loaded on mount and kept fresh by the worker. */
export function useNotifications(): { rows: NotificationRow[] | undefined; result: LoadOutcome | null } {
  const api = useApi();
  const { db } = useData();
  const result = useLoad(() => api.loadNotifications());
  const rows = useLiveQuery(
    async () => (await db.notifications.toArray()).sort((a, b) => b.createdDate.localeCompare(a.createdDate)),
    [db],
  );
  return { rows, result };
}

/** The active contact messages, newest first. */
export function useContactMessages(): { rows: ContactMessageRow[] | undefined; result: LoadOutcome | null } {
  const api = useApi();
  const { db } = useData();
  const result = useLoad(() => api.loadContactMessages());
  const rows = useLiveQuery(
    async () =>
      (await db.contactMessages.toArray()).sort((a, b) => b.MessageDate.localeCompare(a.MessageDate)),
    [db],
  );
  return { rows, result };
}
