import { useEffect, useRef, useState } from 'react';
import { useData, useSession } from '../data/index.ts';
import { loadDataLayer } from '../data/load-data-layer.ts';
import type { PortalDb } from '../../worker/client/db.ts';
import { browserPush, dropPushSubscription, keepPushSubscription } from './web-push.ts';

/**
 * Web Push for a child who said 'Ja, tack' on this browser (./web-push.ts): subscribed at each start
 * and sign-in while the permission is given, and when it is given later (the browser's own question
 * answered after the tap, or its settings). Whenever the session ends, in this tab or another, this
 * browser takes no more pushes: a push is for the child signed in here. Part of every page; the
 * answer is watched through the data layer, loaded only for a signed-in child (no Dexie code on a
 * signed-out first screen); 'Ja, tack' subscribes by itself (notice-question.tsx).
 */
export function WebPushKeeper({ production }: { production: boolean }) {
  const { status } = useSession();
  const { api, db } = useData();
  const permission = usePermissionChanges();

  const wanted = usePushWanted(status === 'authenticated' ? db : null);

  useEffect(() => {
    if (wanted) void keepPushSubscription(api, browserPush(production));
  }, [wanted, api, production, permission]);

  const before = useRef(status);
  useEffect(() => {
    const was = before.current;
    before.current = status;
    if (status === 'anonymous' && was !== 'anonymous') void dropPushSubscription();
  }, [status]);
  return null;
}

/**
 * Whether the signed-in child said yes on this browser, from the data layer once it is loaded (it
 * is for a signed-in child): only that child is subscribed, never another one on the same browser.
 */
function usePushWanted(db: PortalDb | null): boolean {
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    setWanted(false);
    if (!db) return;
    let stop: (() => void) | undefined;
    let current = true;
    void loadDataLayer().then((layer) => {
      if (current) stop = layer.watchPushWanted(db, setWanted);
    });
    return () => {
      current = false;
      stop?.();
    };
  }, [db]);
  return wanted;
}

/** Counts changes of the notification permission, where the browser tells of them. */
function usePermissionChanges(): number {
  const [changes, setChanges] = useState(0);
  useEffect(() => {
    let stop = () => undefined as void;
    let stopped = false;
    navigator.permissions
      ?.query({ name: 'notifications' })
      .then((state) => {
        if (stopped) return;
        const changed = () => setChanges((n) => n + 1);
        state.addEventListener('change', changed);
        stop = () => state.removeEventListener('change', changed);
      })
      .catch(() => undefined);
    return () => {
      stopped = true;
      stop();
    };
  }, []);
  return changes;
}
