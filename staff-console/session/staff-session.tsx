import { createContext, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import { InMemoryWebStorage } from 'oidc-client-ts';
import { useRuntimeConfig } from '../config/runtime-config.ts';
import { StaffAuth, TokenRequestError, type StaffAccount, type TokenFailure } from './staff-auth.ts';

export type SessionNotice = 'expired' | 'signedOut' | null;

type SessionState =
  | { status: 'restoring' }
  | { status: 'signedOut'; notice: SessionNotice }
  | { status: 'signedIn'; account: StaffAccount };

interface SessionContextValue {
  state: SessionState;
  /** The tokens of whoever signs in on this page. */
  auth: StaffAuth;
  signIn(username: string, password: string): Promise<void>;
  signOut(): Promise<void>;
  /** Ends the session locally when the server refuses even a fresh token. */
  expire(): void;
}

const SessionContext = createContext<SessionContextValue | null>(null);

/**
 * The staff roles this console serves; a token with none of them is refused at sign-in. An
 * administrator reads the feedback figures ('Återkoppling').
 */
export const STAFF_ROLES = ['counsellor', 'group_leader', 'admin'] as const;

export class SignInError extends Error {
  constructor(readonly failure: TokenFailure | 'notStaff') {
    super(`sign-in failed: ${failure}`);
  }
}

/** sessionStorage, or memory where storage is disabled (the session then lasts as long as the page). */
function sessionStore(): Storage {
  try {
    window.sessionStorage.getItem('');
    return window.sessionStorage;
  } catch {
    return new InMemoryWebStorage();
  }
}

/** The console's page: oidc-client-ts wants a redirect address even for the password grant. */
const CONSOLE_PATH = '/personal';

export function StaffSessionProvider({ children }: { children: ReactNode }) {
  const config = useRuntimeConfig();
  const [state, setState] = useState<SessionState>({ status: 'restoring' });
  const [auth] = useState(
    () =>
      new StaffAuth({
        authUrl: config.authUrl,
        portalId: config.portalId,
        store: sessionStore(),
        redirectUri: new URL(CONSOLE_PATH, window.location.origin).href,
        onExpired: () => setState({ status: 'signedOut', notice: 'expired' }),
      }),
  );

  /** The stored tokens become the session, refreshed first when they are about to expire. */
  const enter = useCallback(async () => {
    await auth.accessToken();
    const account = await auth.account();
    if (!account) throw new SignInError('other');
    if (!account.roles.some((r) => (STAFF_ROLES as readonly string[]).includes(r))) {
      await auth.signOut();
      throw new SignInError('notStaff');
    }
    setState({ status: 'signedIn', account });
  }, [auth]);

  // A reload keeps the session (sessionStorage); an unusable stored session means signing in again.
  useEffect(() => {
    void (async () => {
      if (!(await auth.account())) {
        setState({ status: 'signedOut', notice: null });
        return;
      }
      await enter().catch(async () => {
        await auth.forget();
        setState({ status: 'signedOut', notice: null });
      });
    })();
  }, [auth, enter]);

  const signIn = useCallback(
    async (username: string, password: string) => {
      try {
        await auth.signIn(username, password);
        await enter();
      } catch (error) {
        if (error instanceof SignInError) throw error;
        throw new SignInError(error instanceof TokenRequestError ? error.failure : 'other');
      }
    },
    [auth, enter],
  );

  const signOut = useCallback(async () => {
    await auth.signOut();
    setState({ status: 'signedOut', notice: 'signedOut' });
  }, [auth]);

  const expire = useCallback(() => {
    void auth.forget();
    setState({ status: 'signedOut', notice: 'expired' });
  }, [auth]);

  const value = useMemo(
    () => ({ state, auth, signIn, signOut, expire }),
    [state, auth, signIn, signOut, expire],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/** The shell's view of the session (sign-in form, restoring spinner, signed-in console). */
export function useSessionState(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSessionState outside StaffSessionProvider');
  return value;
}

/**
 * The signed-in staff member: account id (the token's `sub`), name, roles (`counsellor`,
 * `group_leader`) and signing out.
 */
export function useStaffSession(): StaffAccount & { signOut(): Promise<void> } {
  const { state, signOut } = useSessionState();
  if (state.status !== 'signedIn') throw new Error('useStaffSession outside the signed-in console');
  return { ...state.account, signOut };
}
