import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import { useApi, useSession } from '../data/index.ts';
import { loggedOutUrl } from './logged-out-url.ts';
import { clearClientStorage } from '../login/clear-client-storage.ts';

/**
 * Session reactions of SPEC §4 that belong to no single page: an expired session (a 401 on the
 * profile) leads to the logged-out page from anywhere, and a tab that becomes visible again asks the
 * worker to check authentication and restart the real-time connection, and the network's coming and
 * going is passed on to the worker.
 */
export function SessionEffects() {
  const api = useApi();
  const { status, signOutReason } = useSession();
  const [, navigate] = useLocation();
  const previous = useRef(status);

  useEffect(() => {
    const wasSignedIn = previous.current === 'authenticated';
    previous.current = status;
    // SPEC §4 Logout clears cookies and storage; sessionStorage is per tab, so every tab clears its own.
    if (wasSignedIn && status === 'anonymous') clearClientStorage();
    if (wasSignedIn && status === 'anonymous' && signOutReason === 'session_expired') {
      navigate(loggedOutUrl(signOutReason), { replace: true });
    }
  }, [status, signOutReason, navigate]);

  useEffect(() => {
    const onVisibility = () => {
      if (document.visibilityState === 'visible') {
        api.becameVisible().catch((error: unknown) => console.error('becameVisible failed', error));
      }
    };
    // Focus is a sign too (a phone's app switch, a return from another window): the worker checks
    // at once that the real-time connection still carries anything.
    const onFocus = () =>
      api.checkConnection().catch((error: unknown) => console.error('checkConnection failed', error));
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('focus', onFocus);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('focus', onFocus);
    };
  }, [api]);

  // A SharedWorker is not reliably told of the network (emulation never reaches it): every tab passes
  // its own events on, so the worker reconnects and catches up the moment the network is back.
  useEffect(() => {
    const tell = (online: boolean) => () =>
      api.networkChanged(online).catch((error: unknown) => console.error('networkChanged failed', error));
    const online = tell(true);
    const offline = tell(false);
    window.addEventListener('online', online);
    window.addEventListener('offline', offline);
    return () => {
      window.removeEventListener('online', online);
      window.removeEventListener('offline', offline);
    };
  }, [api]);

  return null;
}
