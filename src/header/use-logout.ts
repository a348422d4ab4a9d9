import { useCallback } from 'react';
import { useLocation } from 'wouter';
import { useApi } from '../data/index.ts';
import { dropPushSubscription } from '../pwa/web-push.ts';

/**
 * SPEC §4 Logout: the worker ends everything, then the user lands on the logged-out page. This
 * browser's push subscription goes first (the worker deletes the server's copy before it revokes).
 */
export function useLogout(): () => Promise<void> {
  const api = useApi();
  const [, navigate] = useLocation();
  return useCallback(async () => {
    void dropPushSubscription();
    try {
      await api.logout('user');
    } catch (error) {
      console.error('Logout failed', error);
    }
    navigate('/utloggad');
  }, [api, navigate]);
}
