import {
  ErrorResponse,
  InMemoryWebStorage,
  UserManager,
  WebStorageStateStore,
  type User,
} from 'oidc-client-ts';
import { TOKEN_SCOPE } from '../../contract/config.ts';
import { WRONG_CREDENTIALS } from '../../contract/errors.ts';
import { REFRESH_BEFORE_EXPIRY_MS } from '../../contract/timings.ts';
import { StaffApiError } from '../api/staff-api.ts';
import { API_ERROR_TEXTS } from '../api/texts.ts';

/** The staff console's own public client (the child app's is `portal-web`). */
export const STAFF_CLIENT_ID = 'portal-staff';

/** Why signing in failed: wrong credentials, too many attempts, or anything else. */
export type TokenFailure = 'invalid' | 'throttled' | 'other';

export class TokenRequestError extends Error {
  constructor(readonly failure: TokenFailure) {
    super(`token request failed: ${failure}`);
    this.name = 'TokenRequestError';
  }
}

/** Who is signed in: the account id (the token's `sub`), the name and the staff roles. */
export interface StaffAccount {
  accountId: number;
  name: string;
  roles: string[];
}

export interface StaffAuthOptions {
  /** `{auth}` of the runtime config: the token, revocation and discovery endpoints hang off it. */
  authUrl: string;
  portalId: string;
  /**
   * Where the signed-in user is kept. The console gives sessionStorage: a reload keeps the session,
   * closing the tab ends it, and nothing outlives the browser session on a shared desktop.
   */
  store: Storage;
  /** oidc-client-ts requires one; the console never redirects (password grant only). */
  redirectUri: string;
  /** The server refused the refresh token: the session is over. */
  onExpired(): void;
  now?: () => number;
}

/**
 * The staff member's tokens with oidc-client-ts: the password grant of client `portal-staff`, the
 * refresh-token grant a minute before the access token expires, and revocation on signing out.
 * Refreshes happen one at a time: refresh tokens rotate, and the server takes a used one as stolen
 * and ends the whole login.
 */
export class StaffAuth {
  private readonly manager: UserManager;
  private readonly now: () => number;
  private refreshing: Promise<string> | null = null;

  constructor(private readonly options: StaffAuthOptions) {
    this.now = options.now ?? Date.now;
    this.manager = new UserManager({
      authority: options.authUrl,
      client_id: STAFF_CLIENT_ID,
      redirect_uri: options.redirectUri,
      scope: TOKEN_SCOPE,
      // UserManager ignores per-call extraTokenParams; only the settings reach the token request.
      extraTokenParams: { portalId: options.portalId },
      userStore: new WebStorageStateStore({ store: options.store }),
      // The state store only serves redirect flows, which the console never uses.
      stateStore: new WebStorageStateStore({ store: new InMemoryWebStorage() }),
      automaticSilentRenew: false,
      monitorSession: false,
      loadUserInfo: false,
    });
  }

  /** The password grant; the user is stored on success. */
  async signIn(username: string, password: string): Promise<void> {
    try {
      await this.manager.signinResourceOwnerCredentials({ username, password });
    } catch (error) {
      throw new TokenRequestError(signInFailureOf(error));
    }
  }

  /** The signed-in account, from the stored tokens; null when nobody is signed in here. */
  async account(): Promise<StaffAccount | null> {
    const user = await this.manager.getUser();
    if (!user?.access_token) return null;
    return {
      accountId: Number(user.profile.sub),
      name: typeof user.profile.name === 'string' ? user.profile.name : '',
      roles: rolesOf(user.access_token),
    };
  }

  /**
   * A valid access token: the stored one, or - when it ends within a minute, or the server has
   * just refused it (`refused`) - a refreshed one. Callers that ask during a refresh share it. A
   * refused refresh ends the session (onExpired, then a 401 StaffApiError); an unreachable server
   * keeps it (a network StaffApiError, worth another try).
   */
  async accessToken(refused?: string): Promise<string> {
    if (this.refreshing) return this.refreshing;
    const user = await this.manager.getUser();
    if (user && user.access_token !== refused && this.isFresh(user)) return user.access_token;
    this.refreshing ??= this.refresh(user?.access_token).finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /** Revokes the refresh token (ending the login) and the access token (closing its hub connections). */
  async signOut(): Promise<void> {
    // One at a time and each on its own: a failed revocation must not keep the other from being tried.
    for (const type of ['refresh_token', 'access_token'] as const) {
      await this.manager.revokeTokens([type]).catch((error: unknown) => {
        console.warn(`staff console: revoking the ${type} failed`, error);
      });
    }
    await this.forget();
  }

  /** Forgets the tokens here without asking the server (the server already ended the session). */
  forget(): Promise<void> {
    return this.manager.removeUser();
  }

  private async refresh(seen: string | undefined): Promise<string> {
    const user = await this.manager.getUser();
    if (!user?.refresh_token) return this.expire();
    // Someone refreshed after this caller looked: the newer token serves.
    if (user.access_token !== seen && this.isFresh(user)) return user.access_token;
    try {
      const refreshed = await this.manager.signinSilent();
      return refreshed?.access_token ?? this.expire();
    } catch (error) {
      if (error instanceof ErrorResponse && error.error === 'invalid_grant') return this.expire();
      // The network or the server failed, not the login: keep the session and let the caller retry.
      if (error instanceof ErrorResponse || isTransient(error)) {
        throw new StaffApiError(0, API_ERROR_TEXTS.network, 'network');
      }
      // Anything else (an answer that does not validate) would fail the same way again.
      return this.expire();
    }
  }

  private async expire(): Promise<never> {
    await this.forget();
    this.options.onExpired();
    throw new StaffApiError(401, API_ERROR_TEXTS.unauthorized, 'unauthorized');
  }

  private isFresh(user: User): boolean {
    return !!user.access_token && (user.expires_at ?? 0) * 1000 - this.now() > REFRESH_BEFORE_EXPIRY_MS;
  }
}

function signInFailureOf(error: unknown): TokenFailure {
  if (error instanceof ErrorResponse) {
    if (error.error_description === WRONG_CREDENTIALS) return 'invalid';
    if (error.error_description === 'too_many_attempts') return 'throttled';
  }
  // oidc-client-ts drops the status of a non-OAuth answer into its message.
  if (error instanceof Error && /\(429\)/.test(error.message)) return 'throttled';
  return 'other';
}

function isTransient(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error instanceof TypeError || error.name === 'AbortError' || /\((5\d\d|408|429)\)/.test(error.message)
  );
}

/** The roles claim (`role`) of an access token; the signature is the server's business. */
export function rolesOf(accessToken: string): string[] {
  try {
    const payload = accessToken.split('.')[1] ?? '';
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const role = (JSON.parse(json) as { role?: unknown }).role;
    if (Array.isArray(role)) return role.filter((r): r is string => typeof r === 'string');
    return typeof role === 'string' ? [role] : [];
  } catch {
    return [];
  }
}
