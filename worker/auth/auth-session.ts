import {
  ErrorResponse,
  InMemoryWebStorage,
  UserManager,
  WebStorageStateStore,
  type StateStore,
  type User,
} from 'oidc-client-ts';
import type { RuntimeConfig } from '../../contract/config.ts';
import { TOKEN_SCOPE } from '../../contract/config.ts';
import type { LoginResult } from '../client/session.ts';
import { failure } from '../client/result.ts';
import type { Clock, WithLock } from '../clock.ts';
import { loginErrorOf } from './login-errors.ts';
import { WithoutIdToken } from './user-store.ts';
import { REFRESH_BEFORE_EXPIRY_MS } from '../../contract/timings.ts';
export { REFRESH_BEFORE_EXPIRY_MS };

/** A token this close to expiry is not worth sending any more. */
const VALIDITY_MARGIN_MS = 5_000;
const REFRESH_LOCK = 'portal-auth-refresh';

export interface AuthDeps {
  config: Pick<RuntimeConfig, 'authUrl' | 'authClientId' | 'portalId'>;
  origin: string;
  userStore: StateStore;
  clock: Clock;
  withLock: WithLock;
}

export type RefreshOutcome = 'refreshed' | 'rejected' | 'unreachable' | 'no-refresh-token';

/**
 * Tokens of SPEC §4 with oidc-client-ts in the worker: password grant, refresh-token grant on our own
 * schedule (no iframes or timers of the library, which need a window), revocation on logout.
 */
export class AuthSession {
  readonly manager: UserManager;
  private refreshTimer: unknown = null;

  constructor(private readonly deps: AuthDeps) {
    this.manager = new UserManager({
      authority: deps.config.authUrl,
      client_id: deps.config.authClientId,
      redirect_uri: `${deps.origin}/`,
      scope: TOKEN_SCOPE,
      // Per-call extraTokenParams are ignored by UserManager; only the settings reach the token call.
      extraTokenParams: { portalId: deps.config.portalId },
      userStore: new WithoutIdToken(deps.userStore),
      // The state store only serves redirect flows, which the worker never uses.
      stateStore: new WebStorageStateStore({ store: new InMemoryWebStorage() }),
      automaticSilentRenew: false,
      monitorSession: false,
      loadUserInfo: false,
    });
  }

  async login(username: string, password: string | null): Promise<LoginResult> {
    try {
      // The stored user stays until a new one replaces it: a failed attempt must not sign anyone out.
      await this.manager.signinResourceOwnerCredentials({
        username: username.trim(),
        // Group style (SPEC §4): the personal code is the username and the password is empty.
        password: password ?? '',
      });
      return { ok: true, value: undefined };
    } catch (error) {
      return failure(loginErrorOf(error));
    }
  }

  /** The stored user if its access token is still good for a while. */
  async validUser(): Promise<User | null> {
    const user = await this.manager.getUser();
    return user && this.isValid(user) ? user : null;
  }

  /** A usable access token: the stored one, or a refreshed one; null when signed out. */
  async accessToken(): Promise<string | null> {
    const user = await this.validUser();
    if (user) return user.access_token;
    if ((await this.refresh()) !== 'refreshed') return null;
    // Just issued by the server: use it even if the local clock disagrees about its lifetime.
    return (await this.manager.getUser())?.access_token ?? null;
  }

  /** SPEC §4 initial check: a valid token, else a refresh. */
  async check(): Promise<boolean> {
    if (await this.validUser()) return true;
    return (await this.refresh()) === 'refreshed';
  }

  /**
   * The refresh-token grant under a cross-worker lock: refresh tokens rotate, so two workers
   * refreshing the same one would leave one of them with a spent token. Whoever comes second sees
   * the newer user in the shared store and uses it.
   */
  async refresh(staleToken?: string): Promise<RefreshOutcome> {
    return this.deps.withLock(REFRESH_LOCK, async () => {
      const user = await this.manager.getUser();
      if (!user?.refresh_token) return 'no-refresh-token';
      if (staleToken && user.access_token !== staleToken && this.isValid(user)) return 'refreshed';
      try {
        const refreshed = await this.manager.signinSilent();
        return refreshed ? 'refreshed' : 'rejected';
      } catch (error) {
        if (error instanceof ErrorResponse && error.error === 'invalid_grant') {
          // The server said no: the refresh token is spent, revoked or expired.
          await this.manager.removeUser();
          return 'rejected';
        }
        // Another error body (a 500 page as JSON, say) is the server's trouble, not the session's.
        if (error instanceof ErrorResponse) return 'unreachable';
        // Offline or a server in trouble: worth another try. Anything else (a response that does
        // not validate) would fail the same way again; the access token may still serve a while.
        return isTransient(error) ? 'unreachable' : 'rejected';
      }
    });
  }

  /**
   * Runs `work` under the refresh lock, so a refresh asked for meanwhile (another worker's, or the
   * outbox's after a 401) waits and then finds the tokens `work` stored instead of spending revoked
   * ones. The lock is not re-entrant: `work` must not ask for a refresh (send a token read before).
   */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    return this.deps.withLock(REFRESH_LOCK, work);
  }

  /**
   * Schedules the next refresh 60 s before the access token expires. `onDue` does the refresh (so the
   * caller can react to its outcome) and normally schedules again.
   */
  async scheduleRefresh(onDue: () => void): Promise<void> {
    this.stopRefresh();
    const user = await this.manager.getUser();
    if (!user?.expires_at) return;
    const due = user.expires_at * 1000 - REFRESH_BEFORE_EXPIRY_MS - this.deps.clock.now();
    this.refreshTimer = this.deps.clock.setTimeout(
      () => {
        this.refreshTimer = null;
        onDue();
      },
      Math.max(0, due),
    );
  }

  stopRefresh(): void {
    if (this.refreshTimer !== null) this.deps.clock.clearTimeout(this.refreshTimer);
    this.refreshTimer = null;
  }

  /** Revokes both tokens; if the server cannot be reached the user is still removed locally. */
  async signOut(): Promise<void> {
    this.stopRefresh();
    try {
      if (await this.manager.getUser()) await this.manager.revokeTokens();
    } catch (error) {
      console.warn('Token revocation failed; signing out locally', error);
    }
    await this.manager.removeUser();
  }

  private isValid(user: User): boolean {
    if (!user.access_token || !user.expires_at) return false;
    return user.expires_at * 1000 - this.deps.clock.now() > VALIDITY_MARGIN_MS;
  }
}

function isTransient(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error instanceof TypeError || error.name === 'AbortError' || /\((5\d\d|408|429)\)/.test(error.message)
  );
}
