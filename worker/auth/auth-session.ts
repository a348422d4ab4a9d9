import { LOCKS } from '../base/web-locks.ts';
import {
  ErrorResponse,
  ErrorTimeout,
  InMemoryWebStorage,
  OidcClient,
  User,
  UserManager,
  WebStorageStateStore,
  type StateStore,
} from 'oidc-client-ts';
import type { RuntimeConfig } from '../../contract/config.ts';
import { TOKEN_SCOPE } from '../../contract/config.ts';
import type { LoginResult } from '../base/session.ts';
import { failure } from '../base/result.ts';
import type { Clock, WithLock } from '../clock.ts';
import { loginErrorOf } from './login-errors.ts';
import { WithoutIdToken } from './user-store.ts';
import { BoundDeviceToken } from './device-token.ts';
import { DEVICE_TOKEN_FIELD } from '../../contract/schemas/connect.ts';
import { VARIANT_HEADER, type AppVariant } from '../../contract/variant.ts';
import {
  SESSION_CHECK_INTERVAL_MS,
  SILENT_REFRESH_TIMEOUT_MS,
  TOKEN_TIMEOUT_FACTOR,
} from '../../contract/timings.ts';

/** A token this close to expiry is not worth sending any more. */
const VALIDITY_MARGIN_MS = 5_000;

export interface AuthDeps {
  config: Pick<RuntimeConfig, 'authUrl' | 'authClientId' | 'portalId'>;
  /** SPEC §1: every request says which variant sends it, the token and revocation calls too. */
  variant?: AppVariant;
  origin: string;
  userStore: StateStore;
  /** Where the device token is kept (the user store when none is given). */
  deviceStore?: StateStore;
  /** PBKDF2 rounds of the device token's mask (worker/auth/device-token.ts); tests may take fewer. */
  deviceTokenIterations?: number;
  clock: Clock;
  withLock: WithLock;
  /** An authentication library event with what went wrong (an error code or message, no secret). */
  onEvent?: (event: AuthEvent, detail: string) => void;
  /** New tokens were stored (a login, a refresh). */
  onUserLoaded?: () => void;
}

export type RefreshOutcome = 'refreshed' | 'rejected' | 'unreachable' | 'no-refresh-token';

/**
 * SPEC §8's authentication library events that a password-grant worker can meet; they are only
 * emitted (to the client error log), never shown. The others cannot occur here: `popup_blocked` and
 * `popup_closed` (no popup opens: the login is the app's own form), `invalid_nonce_in_state` (no
 * redirect, so no nonce). docs/decisions.md says so.
 */
export const AUTH_EVENTS = [
  'token_error',
  'token_refresh_error',
  'token_validation_error',
  'discovery_document_load_error',
  'silent_refresh_timeout',
  'token_revoke_error',
] as const;
export type AuthEvent = (typeof AUTH_EVENTS)[number];

/**
 * Tokens of SPEC §4 with oidc-client-ts in the worker: password grant, refresh-token grant on our own
 * schedule (no iframes or timers of the library, which need a window), revocation on logout.
 */
export class AuthSession {
  readonly manager: UserManager;
  /**
   * The password grant goes through the library's client rather than `UserManager`, whose user
   * keeps only the standard fields of the answer: the device token the server sends beside them
   * would be lost (and per-call token fields would be ignored).
   */
  private readonly client: OidcClient;
  private readonly deviceTokens: BoundDeviceToken;
  private refreshTimer: unknown = null;
  /** The extra fields of every token request (the refresh grant's too). */
  private readonly tokenParams: Record<string, string>;

  constructor(private readonly deps: AuthDeps) {
    this.tokenParams = { portalId: deps.config.portalId };
    this.deviceTokens = new BoundDeviceToken(
      deps.deviceStore ?? deps.userStore,
      ...(deps.deviceTokenIterations ? [deps.deviceTokenIterations] : []),
    );
    this.manager = new UserManager({
      authority: deps.config.authUrl,
      client_id: deps.config.authClientId,
      redirect_uri: `${deps.origin}/`,
      scope: TOKEN_SCOPE,
      // Per-call extraTokenParams are ignored by UserManager; only the settings reach the token call.
      extraTokenParams: this.tokenParams,
      userStore: new WithoutIdToken(deps.userStore),
      // The state store only serves redirect flows, which the worker never uses.
      stateStore: new WebStorageStateStore({ store: new InMemoryWebStorage() }),
      automaticSilentRenew: false,
      monitorSession: false,
      loadUserInfo: false,
      requestTimeoutInSeconds: SILENT_REFRESH_TIMEOUT_MS / 1000,
      // The library's own check (an iframe) needs a window; the worker runs SPEC §9's 3 s check itself
      // (SessionLifecycle.checkSession). The library version used has no clock-skew setting.
      checkSessionIntervalInSeconds: SESSION_CHECK_INTERVAL_MS / 1000,
      extraHeaders: deps.variant ? { [VARIANT_HEADER]: deps.variant } : {},
    });
    this.client = new OidcClient(this.manager.settings, this.manager.metadataService);
    const loaded = deps.onUserLoaded;
    if (loaded) this.manager.events.addUserLoaded(() => loaded());
  }

  /**
   * The password grant (a personal code in group style). A password login sends this device's
   * token for the account, if it keeps one (worker/auth/device-token.ts), and keeps the new one the
   * server answers with: each successful login replaces it, so a copy taken from this device goes
   * stale. Refused with 429 while a token came along, it is tried once more at once without one:
   * this server ignores a token it will not honour, but a server that counted it against the
   * login (an older release in a rolling upgrade, another backend the runtime config names) may
   * have refused because of it, and without it the login is judged by its address and username
   * alone, as on a device that never had one.
   */
  async login(username: string, password: string | null): Promise<LoginResult> {
    try {
      const name = username.trim();
      // Group style (SPEC §4): the personal code is the username and the password is empty; codes
      // meet no brake, so they carry no device token.
      const device = password === null ? null : await this.deviceTokens.forLogin(name, password);
      const grant = (token: string | null) =>
        this.client.processResourceOwnerPasswordCredentials({
          username: name,
          password: password ?? '',
          extraTokenParams: token ? { ...this.tokenParams, [DEVICE_TOKEN_FIELD]: token } : this.tokenParams,
        });
      const response = await grant(device?.token ?? null).catch((error: unknown) => {
        if (!device?.token || loginErrorOf(error) !== 'too_many_attempts') throw error;
        return grant(null);
      });
      // The library takes a 200 without a token as a user: an answer that does not validate.
      if (!response.access_token) {
        this.emit('token_validation_error', 'no access token in the answer');
        await this.manager.removeUser();
        return failure('failed');
      }
      const issued = (response as unknown as Record<string, unknown>)[DEVICE_TOKEN_FIELD];
      if (device && typeof issued === 'string') await device.keep(issued);
      // As UserManager.signinResourceOwnerCredentials stores a user and tells its listeners. The
      // stored user stays until this one replaces it: a failed attempt must not sign anyone out.
      const user = new User(response);
      await this.manager.storeUser(user);
      await this.manager.events.load(user);
      return { ok: true, value: undefined };
    } catch (error) {
      const code = loginErrorOf(error);
      // A timed-out login is not asked again for the discovery document: that would wait as long again.
      const discovery = !(error instanceof ErrorTimeout) && (await this.discoveryFailed());
      this.emit(discovery ? 'discovery_document_load_error' : 'token_error', code);
      return failure(code);
    }
  }

  /**
   * Keeps a device token the server issued outside a login (a registration's answer) under the
   * credentials it belongs to, so the first login on this device is spared a brake as later ones are.
   */
  async keepDeviceToken(username: string, password: string, token: string): Promise<void> {
    await (await this.deviceTokens.forLogin(username, password)).keep(token);
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
    return this.deps.withLock(LOCKS.authRefresh, async () => {
      const user = await this.manager.getUser();
      if (!user?.refresh_token) return 'no-refresh-token';
      if (staleToken && user.access_token !== staleToken && this.isValid(user)) return 'refreshed';
      try {
        // Per call: signinSilent() without it passes an undefined timeout that overrides the
        // settings' (oidc-client-ts 3.5), and a token request left unanswered would hang for good.
        const refreshed = await this.manager.signinSilent({
          silentRequestTimeoutInSeconds: SILENT_REFRESH_TIMEOUT_MS / 1000,
        });
        // The library takes a 200 without a token as a user: an answer that does not validate.
        if (refreshed && !refreshed.access_token) {
          this.emit('token_validation_error', 'no access token in the answer');
          // The library has stored it as the user already: no half-signed-in session stays behind.
          await this.manager.removeUser();
          return 'rejected';
        }
        return refreshed ? 'refreshed' : 'rejected';
      } catch (error) {
        this.emit(await this.refreshEventOf(error), describe(error));
        if (error instanceof ErrorResponse && error.error === 'invalid_grant') {
          // The server said no: the refresh token is spent, revoked or expired.
          await this.manager.removeUser();
          return 'rejected';
        }
        // Another error body (a 500 page as JSON, say) is the server's trouble, not the session's.
        if (error instanceof ErrorResponse) return 'unreachable';
        // Offline, no answer within SILENT_REFRESH_TIMEOUT_MS, or a server in trouble: worth
        // another try. Anything else (a response that does not validate) would fail the same way
        // again; the access token may still serve a while.
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
    return this.deps.withLock(LOCKS.authRefresh, work);
  }

  /**
   * Schedules the next refresh at 0.75 of the access token's lifetime (SPEC §9). `onDue` does the
   * refresh (so the caller can react to its outcome) and normally schedules again.
   */
  async scheduleRefresh(onDue: () => void): Promise<void> {
    this.stopRefresh();
    const due = await this.refreshDueAt();
    if (due === null) return;
    this.refreshTimer = this.deps.clock.setTimeout(
      () => {
        this.refreshTimer = null;
        onDue();
      },
      Math.max(0, due - this.deps.clock.now()),
    );
  }

  /**
   * When the stored access token is due for renewal, on this device's clock: its expiry as stored
   * at receipt (local time) less the last quarter of its lifetime (the token's own `exp - iat`,
   * which no clock skew changes). Null without a token.
   */
  async refreshDueAt(): Promise<number | null> {
    const user = await this.manager.getUser();
    if (!user?.expires_at) return null;
    const lifetimeMs = tokenLifetimeMs(user.access_token) ?? REFRESH_FALLBACK_LIFETIME_MS;
    return user.expires_at * 1000 - (1 - TOKEN_TIMEOUT_FACTOR) * lifetimeMs;
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
      this.emit('token_revoke_error', describe(error));
    }
    await this.manager.removeUser();
  }

  /**
   * Ends the login of `refreshToken` at the server (RFC 7009), for a quick exit: no stored user is
   * read or removed, so the local sign-out can go on meanwhile. Best effort: a failure is only
   * emitted (the page's own revocation, or the next start, ends the login then).
   */
  async revokeLogin(refreshToken: string): Promise<void> {
    try {
      const endpoint = await this.manager.metadataService.getRevocationEndpoint();
      if (!endpoint) return;
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          ...(this.deps.variant ? { [VARIANT_HEADER]: this.deps.variant } : {}),
        },
        body: new URLSearchParams({
          token: refreshToken,
          token_type_hint: 'refresh_token',
          client_id: this.deps.config.authClientId,
        }),
      });
      if (!response.ok) this.emit('token_revoke_error', `revocation answered ${response.status}`);
    } catch (error) {
      this.emit('token_revoke_error', describe(error));
    }
  }

  /** Which event a failed refresh is: a timeout, an answer that does not validate, or a refusal. */
  private async refreshEventOf(error: unknown): Promise<AuthEvent> {
    if (error instanceof ErrorTimeout) return 'silent_refresh_timeout';
    if (!(error instanceof ErrorResponse) && !isTransient(error)) return 'token_validation_error';
    return (await this.discoveryFailed()) ? 'discovery_document_load_error' : 'token_refresh_error';
  }

  /** Whether the discovery document cannot be had (the library keeps it once it has loaded it). */
  private discoveryFailed(): Promise<boolean> {
    return this.manager.metadataService.getMetadata().then(
      () => false,
      () => true,
    );
  }

  private emit(event: AuthEvent, detail: string): void {
    console.warn(`Authentication: ${event}`, detail);
    this.deps.onEvent?.(event, detail);
  }

  private isValid(user: User): boolean {
    if (!user.access_token || !user.expires_at) return false;
    return user.expires_at * 1000 - this.deps.clock.now() > VALIDITY_MARGIN_MS;
  }
}

/** A token that is no JWT (another server's): renewed as if it lived 15 minutes. */
const REFRESH_FALLBACK_LIFETIME_MS = 15 * 60_000;

/** `exp - iat` of a JWT access token, in ms; null when it is no readable JWT. */
export function tokenLifetimeMs(token: string): number | null {
  try {
    const payload = token.split('.')[1];
    if (!payload) return null;
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const { iat, exp } = JSON.parse(json) as { iat?: unknown; exp?: unknown };
    return typeof iat === 'number' && typeof exp === 'number' && exp > iat ? (exp - iat) * 1000 : null;
  } catch {
    return null;
  }
}

function isTransient(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error instanceof TypeError ||
    error instanceof ErrorTimeout ||
    error.name === 'AbortError' ||
    /\((5\d\d|408|429)\)/.test(error.message)
  );
}

/** What went wrong, for the log: the server's error code, else the error's own message. */
function describe(error: unknown): string {
  if (error instanceof ErrorResponse) return error.error ?? 'error response';
  return error instanceof Error ? error.message : String(error);
}
