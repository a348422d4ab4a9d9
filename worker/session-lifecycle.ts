import { entityKey } from '../contract/hub.ts';
import type { AuthSession } from './auth/auth-session.ts';
import type { LoginResult, SignOutReason } from './base/session.ts';
import { failure, type ErrorCode, type Result } from './base/result.ts';
import type { ClientLog } from './client-log.ts';
import type { HttpClient } from './http/http-client.ts';
import { isHttpError } from './http/http-error.ts';
import type { HubClient } from './hub/hub-client.ts';
import type { PortalWorkerDeps } from './portal-worker-deps.ts';
import type { Table } from 'dexie';
import type { SessionTimers } from './clock.ts';
import type { Stop, SyncModule } from './sync/sync-module.ts';
import { refreshNotificationCount } from './sync/notification-count.ts';
import { loadProfile } from './sync/profile.ts';
import { updateRuntime, writeSession } from './sync/runtime.ts';
import { SESSION_CHECK_INTERVAL_MS } from '../contract/timings.ts';
import { exitHandleOf } from '../contract/quick-exit.ts';

/** After a refresh the server could not be asked about, try again this soon. */
const REFRESH_RETRY_MS = 30_000;

/** What the session's life needs of the worker core it belongs to. */
export interface SessionHost {
  readonly auth: AuthSession;
  readonly http: HttpClient;
  readonly hub: HubClient;
  readonly clientLog: ClientLog;
  readonly modules: readonly SyncModule<object>[];
  /** Every module's tables, running in this variant or not. */
  readonly userTables: readonly Table[];
  readonly sessionTimers: SessionTimers;
  /** This worker holds the hub and the timers (read at each step: a follower may become the runner). */
  readonly isRunner: boolean;
}

/**
 * A session's life in the data worker (SPEC §4): sign-in and the start of everything it brings (the
 * profile, the hub, the refresh timer, the modules), the authentication check, renewal after a
 * password change, and the end, local or asked for, that leaves nothing of the user behind.
 */
export class SessionLifecycle {
  /** A session is known to be valid in this worker. */
  authenticated = false;
  /** Whose session this worker runs (the token's subject), for the session check. */
  private sessionUser: string | undefined;
  private sessionCheckTimer: unknown = null;
  private sessionCheckGeneration = 0;
  /** What the modules started for this session (their signedIn's answers), ended with it. */
  private readonly stops: Stop[] = [];

  constructor(
    private readonly host: SessionHost,
    private readonly deps: PortalWorkerDeps,
  ) {}

  async login(username: string, password: string | null): Promise<LoginResult> {
    this.deps.allowLocalData?.();
    const previous = (await this.host.auth.manager.getUser())?.profile.sub;
    const result = await this.host.auth.login(username, password);
    if (result.ok) await this.signedIn(previous);
    return result;
  }

  /**
   * For a call after which the server has ended every session of the account, this device's too (a
   * password change): runs it, then signs in again with `username` and the new `password`, so the
   * user stays signed in here. The hub is stopped first: the server closes it, and its reconnect's
   * 401 would end the session as expired. The call and the new sign-in hold the refresh lock, so a
   * refresh meanwhile (another worker's, or the outbox's after a 401) waits and then finds the new
   * tokens instead of spending a revoked one. When the new sign-in fails, this device is signed out
   * ('signed_out', and the session row says 'session_expired').
   */
  async renewSession<C extends ErrorCode>(
    username: string,
    password: string,
    call: (token: string) => Promise<Result<void, C>>,
  ): Promise<Result<void, C | 'signed_out' | 'failed'>> {
    // Read before the lock: asking for a token under it may mean a refresh, which waits for the lock.
    const token = await this.host.auth.accessToken();
    if (!token) return failure('failed');
    const previous = (await this.host.auth.manager.getUser())?.profile.sub;
    const runner = this.host.isRunner;
    if (runner) await this.host.hub.stop();
    const outcome = await this.host.auth.exclusive(async (): Promise<Result<void, C | 'signed_out'>> => {
      const result = await call(token);
      if (!result.ok) return result;
      return (await this.host.auth.login(username, password)).ok ? result : failure('signed_out');
    });
    if (outcome.ok) await this.signedIn(previous);
    else if (outcome.code === 'signed_out') await this.logout('session_expired');
    else if (runner) await this.host.hub.start();
    return outcome;
  }

  /** See SyncContext.session.withoutHub. */
  async withoutHub<R>(call: () => Promise<R>, ended: (result: R) => boolean): Promise<R> {
    const runner = this.host.isRunner;
    if (runner) await this.host.hub.stop();
    const result = await call();
    if (!ended(result) && runner) await this.host.hub.start();
    return result;
  }

  async logout(reason: SignOutReason = 'user'): Promise<void> {
    for (const module of this.host.modules) await module.signingOut?.(reason);
    // The user's last errors go with the user's token, before it is gone.
    await this.host.clientLog.flush();
    await this.host.auth.signOut();
    await this.signedOut(reason);
  }

  /**
   * 'Lämna sidan' (docs/security.md, "What the device keeps"): the session ends here now, as a
   * logout would, but without waiting for the server, which a child leaving in a hurry may not
   * reach. The page has sent the login's exit handle as it went; the revocation from here is a
   * second chance, started before the tokens are erased and not waited for.
   */
  async quickExit(): Promise<void> {
    const refreshToken = (await this.host.auth.manager.getUser())?.refresh_token;
    const revoked = refreshToken ? this.host.auth.revokeLogin(refreshToken) : Promise.resolve();
    await this.signedOut('user');
    await revoked;
  }

  /** The quick exit's handle of the login signed in here (contract/quick-exit.ts), null when none. */
  async exitHandle(): Promise<string | null> {
    const refreshToken = (await this.host.auth.manager.getUser())?.refresh_token;
    return refreshToken ? exitHandleOf(refreshToken) : null;
  }

  /** Tells the tabs the exit handle of the tokens just stored (a login, a refresh). */
  async announceExitHandle(): Promise<void> {
    this.deps.broadcast({ type: 'exit-handle', handle: await this.exitHandle() });
  }

  /**
   * SPEC §4 authentication check. `refreshFirst` is the startup order (refresh, then the token);
   * otherwise a valid token is enough and a refresh the fallback.
   */
  async authCheck(refreshFirst: boolean): Promise<boolean> {
    const outcome = refreshFirst ? await this.host.auth.refresh() : null;
    const ok = outcome === 'refreshed' || (await this.host.auth.check());
    if (ok) {
      this.authenticated = true;
      await writeSession(this.deps.db, 'authenticated', undefined, this.deps.clock.now());
      await this.afterSignIn();
      return true;
    }
    // No valid token and no refresh: signed out, unless the server was merely unreachable.
    const user = await this.host.auth.manager.getUser();
    if (!user?.refresh_token) await this.signedOut(this.authenticated ? 'session_expired' : undefined);
    return false;
  }

  /** A password login succeeded: the session row, the user's data and the hub follow. */
  private async signedIn(previousUser: string | undefined): Promise<void> {
    // Someone else signed in over a session: nothing of the previous user may stay visible.
    if (previousUser && previousUser !== (await this.host.auth.manager.getUser())?.profile.sub) {
      await this.clearUserData();
    }
    this.authenticated = true;
    await writeSession(this.deps.db, 'authenticated', undefined, this.deps.clock.now());
    await this.afterSignIn();
    this.deps.notifyPeers?.({ type: 'signed-in' });
  }

  /**
   * The runner's part of a session: the hub, the refresh timer and the modules' starts. Offline (a
   * leader elected while the network is down) the stored profile is enough: the hub then keeps
   * trying and connects at once when the network is back (`onOnline`).
   */
  private async afterSignIn(): Promise<void> {
    this.sessionUser = (await this.host.auth.manager.getUser())?.profile.sub;
    this.scheduleSessionCheck();
    const profile = (await this.refreshProfile()) ?? (await this.deps.db.profile.get('current'));
    // A 401 on the profile ended the session; a worker that is not the runner holds no connection.
    if (!this.authenticated || !this.host.isRunner) return;
    await this.scheduleRefresh();
    await this.host.hub.start();
    if (profile) void this.host.hub.subscribe(entityKey('Contact', profile.contactId));
    for (const module of this.host.modules) {
      const stop = await module.signedIn?.();
      if (stop) this.stops.push(stop);
    }
    await this.refreshNotifications();
  }

  /** SPEC §8: a 401 on the profile means the session is over; other failures are only logged. */
  async refreshProfile() {
    try {
      return await loadProfile(this.host.http, this.deps.db, this.deps.config);
    } catch (error) {
      if (isHttpError(error) && error.status === 401) await this.logout('session_expired');
      return null;
    }
  }

  /** The header dot; also after the account's notification and contact-message writes (SPEC §7). */
  async refreshNotifications(): Promise<void> {
    await refreshNotificationCount(this.host.http, this.deps.db).catch((error: unknown) =>
      this.host.clientLog.report({ message: `Notification count: ${String(error)}` }),
    );
  }

  private async scheduleRefresh(): Promise<void> {
    await this.host.auth.scheduleRefresh(() => void this.refreshDue());
  }

  private async refreshDue(): Promise<void> {
    const token = (await this.host.auth.manager.getUser())?.access_token;
    const outcome = await this.host.auth.refresh(token);
    if (outcome === 'refreshed') return this.scheduleRefresh();
    if (outcome === 'unreachable') {
      this.deps.clock.setTimeout(() => void this.refreshDue(), REFRESH_RETRY_MS);
      return;
    }
    if (!(await this.host.auth.validUser())) await this.signedOut('session_expired');
  }

  /** The hub refused our token although it looked valid (revoked elsewhere): refresh or sign out. */
  async tokenRefused(): Promise<void> {
    const token = (await this.host.auth.manager.getUser())?.access_token;
    const outcome = await this.host.auth.refresh(token);
    if (outcome === 'rejected' || outcome === 'no-refresh-token') await this.signedOut('session_expired');
  }

  /** Local end of a session: no hub, no timers, no data of the user left for the next one. */
  private async signedOut(reason: SignOutReason | undefined): Promise<void> {
    const wasAuthenticated = this.authenticated;
    await this.stopSession();
    const { db } = this.deps;
    // An expired session may still hold its spent tokens: nothing of them stays either.
    await this.host.auth.manager.removeUser();
    await this.eraseUserData();
    await writeSession(db, 'anonymous', reason, this.deps.clock.now());
    if (reason && (wasAuthenticated || reason === 'user')) {
      this.deps.broadcast({ type: 'signed-out', reason });
      this.deps.notifyPeers?.({ type: 'signed-out' });
    }
  }

  /**
   * At a sign-out on disk, what was stored is made unreadable, not only deleted: the at-rest key is
   * shredded and the databases go (worker/local-data.ts). The connection's state and the child's
   * answer about notifications (kept across sign-outs) are written back.
   */
  private async eraseUserData(): Promise<void> {
    const { db, eraseLocalData } = this.deps;
    const runtime = await db.runtime.get('current');
    if (!(await eraseLocalData?.())) return this.clearUserData();
    if (runtime) await db.runtime.put({ ...runtime, notificationCount: 0 });
  }

  private async clearUserData(): Promise<void> {
    const { db } = this.deps;
    const tables = [...this.host.userTables];
    await db.transaction('rw', tables, async () => {
      await Promise.all(tables.map((t) => t.clear()));
    });
    await updateRuntime(db, { notificationCount: 0 });
  }

  /** SPEC §9 session check (SESSION_CHECK_INTERVAL_MS), in every worker while it is signed in. */
  private scheduleSessionCheck(): void {
    this.stopSessionCheck();
    const generation = this.sessionCheckGeneration;
    this.sessionCheckTimer = this.deps.clock.setTimeout(() => {
      this.sessionCheckTimer = null;
      void this.checkSession()
        .catch((error: unknown) => console.warn('Session check failed', error))
        .finally(() => {
          // Not when stopped meanwhile (signed out, retired) or already scheduled again (signed in).
          if (this.authenticated && generation === this.sessionCheckGeneration) this.scheduleSessionCheck();
        });
    }, SESSION_CHECK_INTERVAL_MS);
  }

  stopSessionCheck(): void {
    this.sessionCheckGeneration += 1;
    if (this.sessionCheckTimer !== null) this.deps.clock.clearTimeout(this.sessionCheckTimer);
    this.sessionCheckTimer = null;
  }

  /**
   * The tokens in the shared store still belong to the session this worker runs. Gone: the session
   * ended elsewhere, so it ends here too, leaving nothing of the user. Someone else's: theirs is
   * started, with nothing of the previous user kept.
   */
  async checkSession(): Promise<void> {
    if (!this.authenticated) return;
    const user = await this.host.auth.manager.getUser();
    const sub = user?.profile.sub;
    if (sub === this.sessionUser) return;
    if (!user) {
      await this.signedOut('session_expired');
      return;
    }
    await this.clearUserData();
    await this.authCheck(false);
  }

  async stopSession(): Promise<void> {
    this.authenticated = false;
    this.stopSessionCheck();
    this.host.auth.stopRefresh();
    for (const stop of this.stops.splice(0)) stop();
    for (const module of this.host.modules) module.reset?.();
    // An error still waiting for its debounce is the previous user's: sent after this, it would go
    // without a token, or with the next user's on a shared phone.
    this.host.clientLog.stop();
    // A repeating timer a command started and its module did not stop ends here.
    this.host.sessionTimers.end();
    await this.host.hub.stop();
  }
}
