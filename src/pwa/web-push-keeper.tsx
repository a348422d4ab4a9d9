import { useEffect, useRef, useState } from 'react';
import { useData, useSession } from '../data/index.ts';
import { browserPush, dropPushSubscription, keepPushSubscription } from './web-push.ts';

/**
 * Web Push for a child who said 'Ja, tack' (./web-push.ts): subscribed at each start and sign-in
 * while the permission is given, and when it is given later (the browser's own question answered
 * after the tap, or its settings). Whenever the session ends, in this tab or another, or the app
 * starts signed out, this browser takes no more pushes: a push is for the child signed in here.
 * Part of every page, so the child's answer is read once per occasion, not with a live query (no
 * Dexie code on the first screen); 'Ja, tack' subscribes by itself (notice-question.tsx).
 */
export function WebPushKeeper({ production }: { production: boolean }) {
  const { status } = useSession();
  const { api, db } = useData();
  const permission = usePermissionChanges();

  useEffect(() => {
    if (status !== 'authenticated' || !db) return;
    let current = true;
    void db.runtime
      .get('current')
      .then((runtime) => {
        if (current && runtime?.noticeAnswer === 'yes')
          return keepPushSubscription(api, browserPush(production));
      })
      .catch((error: unknown) => console.warn('Web Push: the answer not read', error));
    return () => {
      current = false;
    };
  }, [status, db, api, production, permission]);

  const before = useRef(status);
  useEffect(() => {
    const was = before.current;
    before.current = status;
    if (status === 'anonymous' && was !== 'anonymous') void dropPushSubscription();
  }, [status]);
  return null;
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
