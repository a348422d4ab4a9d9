import { useCallback } from 'react';
import { useLocation } from 'wouter';
import { useApi } from '../data/index.ts';

/** SPEC §4 Logout: the worker ends everything, then the user lands on the logged-out page. */
export function useLogout(): () => Promise<void> {
  const api = useApi();
  const [, navigate] = useLocation();
  return useCallback(async () => {
    try {
      await api.logout('user');
    } catch (error) {
      console.error('Logout failed', error);
    }
    navigate('/utloggad');
  }, [api, navigate]);
}
