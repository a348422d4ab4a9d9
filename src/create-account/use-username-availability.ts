import { useEffect, useState } from 'react';
import type { UsernameAvailability } from '../../worker/client/account.ts';
import { useApi } from '../data/index.ts';

/** Ask the server only once the user has paused typing. */
export const USERNAME_CHECK_DELAY_MS = 400;

export type AvailabilityState = UsernameAvailability | 'idle' | 'checking';

/**
 * The verifyusername check for a well-formed username (`null` while it is not): the answer for an
 * older value never replaces the one for the current value.
 */
export function useUsernameAvailability(username: string | null): AvailabilityState {
  const api = useApi();
  const [state, setState] = useState<{ username: string | null; availability: AvailabilityState }>({
    username: null,
    availability: 'idle',
  });

  useEffect(() => {
    if (username === null) return;
    let current = true;
    const timer = setTimeout(() => {
      api
        .verifyUsername(username)
        .then((result) => (result.ok ? result.value : 'unknown'))
        .catch((): UsernameAvailability => 'unknown')
        .then((availability) => {
          if (current) setState({ username, availability });
        });
    }, USERNAME_CHECK_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [api, username]);

  if (username === null) return 'idle';
  return state.username === username ? state.availability : 'checking';
}
