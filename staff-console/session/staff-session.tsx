import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { useRuntimeConfig } from '../config/runtime-config.ts';
import {
  passwordGrant,
  revokeToken,
  rolesOf,
  TokenRequestError,
  type StaffTokens,
  type TokenFailure,
} from './token-client.ts';
import { readStoredTokens, storeTokens } from './token-store.ts';
import { TokenKeeper } from './token-keeper.ts';

export type SessionNotice = 'expired' | 'signedOut' | null;

type SessionState =
  | { status: 'restoring' }
  | { status: 'signedOut'; notice: SessionNotice }
  | { status: 'signedIn'; name: string; roles: string[]; keeper: TokenKeeper };

interface SessionContextValue {
  state: SessionState;
  signIn(username: string, password: string): Promise<void>;
  signOut(): Promise<void>;
  /** Ends the session locally when the server refuses even a fresh token. */
  expire(): void;
}

const SessionContext = createContext<SessionContextValue | null>(null);

/** The staff roles this console serves; a token without either is refused at sign-in. */
export const STAFF_ROLES = ['counsellor', 'group_leader'] as const;

export class SignInError extends Error {
  constructor(readonly failure: TokenFailure | 'notStaff') {
    super(`sign-in failed: ${failure}`);
  }
}

async function loadName(authUrl: string, keeper: TokenKeeper): Promise<string> {
  const res = await fetch(`${authUrl.replace(/\/$/, '')}/connect/userinfo`, {
    headers: { Authorization: `Bearer ${await keeper.getAccessToken()}` },
  });
  if (!res.ok) throw new Error(`userinfo answered ${res.status}`);
  return String(((await res.json()) as { name?: unknown }).name ?? '');
}

export function StaffSessionProvider({ children }: { children: ReactNode }) {
  const config = useRuntimeConfig();
  const [state, setState] = useState<SessionState>({ status: 'restoring' });
  const current = useRef<SessionState>(state);
  current.current = state;

  const expired = useCallback(() => {
    storeTokens(null);
    setState({ status: 'signedOut', notice: 'expired' });
  }, []);

  const enter = useCallback(
    async (tokens: StaffTokens) => {
      const keeper = new TokenKeeper(tokens, config.authUrl, expired);
      const roles = rolesOf(tokens.accessToken);
      if (!roles.some((r) => (STAFF_ROLES as readonly string[]).includes(r))) {
        storeTokens(null);
        void revokeToken(config.authUrl, tokens.refreshToken ?? tokens.accessToken, 'refresh_token');
        throw new SignInError('notStaff');
      }
      const name = await loadName(config.authUrl, keeper);
      // The refresh may have brought newer roles than the stored token had.
      setState({ status: 'signedIn', name, roles: rolesOf(keeper.current.accessToken), keeper });
    },
    [config.authUrl, expired],
  );

  // A reload keeps the session (sessionStorage); an unusable stored session means signing in again.
  useEffect(() => {
    const stored = readStoredTokens();
    if (!stored) {
      setState({ status: 'signedOut', notice: null });
      return;
    }
    enter(stored).catch(() => {
      storeTokens(null);
      setState({ status: 'signedOut', notice: null });
    });
  }, [enter]);

  const signIn = useCallback(
    async (username: string, password: string) => {
      try {
        const tokens = await passwordGrant(config.authUrl, config.portalId, username, password);
        await enter(tokens);
      } catch (error) {
        if (error instanceof SignInError) throw error;
        throw new SignInError(error instanceof TokenRequestError ? error.failure : 'other');
      }
    },
    [config.authUrl, config.portalId, enter],
  );

  const signOut = useCallback(async () => {
    const s = current.current;
    storeTokens(null);
    if (s.status === 'signedIn') {
      const { accessToken, refreshToken } = s.keeper.current;
      // Revoking the refresh token ends the login; the access token also closes its hub connections.
      await Promise.all([
        refreshToken ? revokeToken(config.authUrl, refreshToken, 'refresh_token') : undefined,
        revokeToken(config.authUrl, accessToken, 'access_token'),
      ]);
    }
    setState({ status: 'signedOut', notice: 'signedOut' });
  }, [config.authUrl]);

  const value = useMemo(
    () => ({ state, signIn, signOut, expire: expired }),
    [state, signIn, signOut, expired],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/** The shell's view of the session (sign-in form, restoring spinner, signed-in console). */
export function useSessionState(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSessionState outside StaffSessionProvider');
  return value;
}

/** The signed-in staff member: name, roles (`counsellor`, `group_leader`) and signing out. */
export function useStaffSession(): { name: string; roles: string[]; signOut(): Promise<void> } {
  const { state, signOut } = useSessionState();
  if (state.status !== 'signedIn') throw new Error('useStaffSession outside the signed-in console');
  return { name: state.name, roles: state.roles, signOut };
}
