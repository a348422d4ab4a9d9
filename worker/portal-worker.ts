import { VARIANT_HEADER } from '../contract/variant.ts';
import { HUB_EVENTS } from '../contract/hub.ts';
import { AuthSession } from './auth/auth-session.ts';
import type { HubEventHandler, PeerMessage, PortalWorkerDeps, SubscribeMode } from './portal-worker-deps.ts';
import type { LoginResult, OutboxWriteRequest, SessionApi, SignOutReason } from './base/session.ts';
import { done, ok, type ErrorCode, type Result } from './base/result.ts';
import { ClientLog } from './client-log.ts';
import { HttpClient } from './http/http-client.ts';
import { HubClient } from './hub/hub-client.ts';
import { Outbox } from './outbox/outbox.ts';
import { SessionTimers } from './clock.ts';
import { PeerAttention } from './tabs/peer-attention.ts';
import type { SyncContext } from './sync/sync-context.ts';
import { everyVariant, type OutboxKind, type SyncModule } from './sync/sync-module.ts';
import type { Table } from 'dexie';
import {
  commandsOf,
  createModules,
  outboxKindsOf,
  type WorkerCommands,
  type WorkerModules,
} from './modules.ts';
import { fetchUploader, xhrUploader } from './sync/upload.ts';
import { updateRuntime } from './sync/runtime.ts';
import { SessionLifecycle } from './session-lifecycle.ts';
import { SystemNotices } from './sync/system-notices.ts';
import { AntiForgeryToken } from './http/anti-forgery.ts';
import { isServerError } from './outbox/backoff.ts';

export { PEER_ATTENTION_REFRESH_MS } from './tabs/peer-attention.ts';

export type { HubEventHandler, PeerMessage, PortalWorkerDeps, SubscribeMode } from './portal-worker-deps.ts';

/**
 * The data worker's core, free of browser-only globals: every dependency is injected, so tests run
 * it in Node against the real server. The *runner* is the one worker that holds the hub connection
 * and the timers (the SharedWorker, or the elected leader among dedicated workers).
 */
export class PortalWorker {
  readonly auth: AuthSession;
  readonly http: HttpClient;
  readonly clientLog: ClientLog;
  readonly hub: HubClient;
  readonly outbox: Outbox;
  /**
   * The sync modules that run in this variant (`runsIn`), the session's own first: the core loops
   * over this list for their starts, events and catch-ups, never names one.
   */
  readonly modules: readonly SyncModule<object>[];
  /** The tables of every module, running here or not: what a sign-out or another user clears. */
  readonly userTables: readonly Table[];
  /** The modules' repeating timers, all ended with the session. */
  readonly sessionTimers: SessionTimers;
  /** The same modules by name (worker/modules.ts, the worker's shape). */
  readonly moduleRegistry: WorkerModules;
  /** Every command of every module, by name: what the tabs call through Comlink. */
  readonly commands: WorkerCommands;
  private readonly outboxKinds: Record<string, OutboxKind>;
  /** System notifications: which tab is visible, and what deserves a notice. */
  readonly notices: SystemNotices;
  /** Sign-in, the authentication check, renewal and sign-out (worker/session-lifecycle.ts). */
  readonly session: SessionLifecycle;
  private runner = false;
  private readonly handlers = new Map<string, HubEventHandler[]>();
  /** What this worker's tabs asked for, so a new leader can be told again. */
  private readonly ownSubscriptions = new Map<string, SubscribeMode>();
  /** The catch-up under way, and whether another was asked for while it ran. */
  private catchingUp: Promise<void> | null = null;
  private catchUpAgain = false;
  /** This worker among its peers (the dedicated-worker fallback). */
  private readonly workerId = crypto.randomUUID();
  /** Whether the other workers' tabs show a live chat (the dedicated-worker fallback). */
  private readonly attention: PeerAttention;
  /** The last call was answered with a server error (runtime `serverTrouble`, as last written). */
  private serverTrouble = false;

  constructor(private readonly deps: PortalWorkerDeps) {
    const { config, clock } = deps;
    this.sessionTimers = new SessionTimers(clock);
    this.attention = new PeerAttention({
      clock,
      workerId: this.workerId,
      ...(deps.notifyPeers ? { notifyPeers: (message) => deps.notifyPeers?.(message) } : {}),
      isRunner: () => this.runner,
    });
    this.session = new SessionLifecycle(this, deps);
    this.auth = new AuthSession({
      config,
      variant: config.variant,
      origin: deps.origin,
      userStore: deps.userStore,
      ...(deps.deviceStore ? { deviceStore: deps.deviceStore } : {}),
      clock,
      withLock: deps.withLock,
      // SPEC §8: the authentication library's events are only emitted, to the client error log.
      onEvent: (event, detail) => this.clientLog.report({ message: `Authentication ${event}: ${detail}` }),
      // Every new refresh token has its own exit handle: the tabs hold the newest.
      onUserLoaded: () => void this.session.announceExitHandle(),
    });
    this.clientLog = new ClientLog({
      clock,
      features: config.features,
      isAuthenticated: () => this.session.authenticated,
      send: (entry) => this.http.post('/createclientlogs', entry, { report: false }),
    });
    this.http = new HttpClient({
      apiUrl: config.apiUrl,
      variant: config.variant,
      fetch: deps.fetch,
      origin: deps.origin,
      accessToken: () => this.auth.accessToken(),
      antiForgery: new AntiForgeryToken({
        apiUrl: config.apiUrl,
        variant: config.variant,
        fetch: deps.fetch,
      }),
      ...(deps.requestTimeoutMs ? { timeoutMs: deps.requestTimeoutMs } : {}),
      now: () => clock.now(),
      onAnswer: (status) => this.answered(status),
      reportError: (error) =>
        this.clientLog.report({
          message: error.message,
          stack: error.stack ?? null,
          url: error.url,
          status: error.status,
        }),
    });
    this.hub = new HubClient({
      signalHubUrl: config.signalHubUrl,
      headers: { [VARIANT_HEADER]: config.variant },
      clock,
      accessToken: () => this.auth.accessToken(),
      onState: (hubState) =>
        void updateRuntime(deps.db, { hubState }).catch((error: unknown) =>
          console.warn('Hub state not written', error),
        ),
      onEvent: (name, data, key) => void this.route(name, data, key),
      onError: (message) => {
        deps.broadcast({ type: 'hub-error', message });
        for (const module of this.modules) void module.realtimeError?.(message);
      },
      onUnauthorized: () => void this.session.tokenRefused(),
      onReconnected: () => void this.catchUp(),
      liveness: {
        matters: () => this.lineMatters(),
        serverAnswers: (timeoutMs) => this.serverAnswers(timeoutMs),
        lineLost: (at) => this.http.abandonSentBefore(at + 1),
        recovered: (sentBefore) => {
          this.http.abandonSentBefore(sentBefore);
          void this.outbox.flush().catch((error: unknown) => console.warn('Outbox flush failed', error));
          void this.catchUp();
        },
        onError: (message) => deps.broadcast({ type: 'hub-error', message }),
      },
      ...deps.hub,
    });
    this.outbox = new Outbox({
      db: deps.db,
      clock,
      ...(deps.random ? { random: deps.random } : {}),
      send: (row) => {
        const headers = { 'Idempotency-Key': row.clientId };
        const send = this.outboxKinds[row.kind]?.send;
        return send ? send(row, headers) : this.http.post(row.path, row.body, { headers });
      },
      refreshToken: async () => (await this.auth.refresh()) === 'refreshed',
      onSettled: async (row) => this.outboxKinds[row.kind]?.settled?.(row),
      // A write that got no answer is a sign the line died: it is checked at once. One the server
      // failed makes the line matter until it goes.
      onWaiting: (row) => (row.lastStatus === 0 ? this.hub.noAnswer() : this.hub.wake()),
      hurry: () => this.notices.anyTabVisible || this.attention.any(),
    });
    const ctx: SyncContext = {
      http: this.http,
      db: deps.db,
      config,
      clock,
      repeat: (ms, run, options) => this.sessionTimers.repeat(ms, run, options),
      subscribe: (key, mode) => this.subscribe(key, mode),
      unsubscribe: (key) => this.unsubscribe(key),
      enqueue: (write) => this.enqueue(write),
      whenSettled: (clientId, timeoutMs) => this.outbox.whenSettled(clientId, timeoutMs),
      retryWrite: async (clientId) => {
        const retried = await this.outbox.retry(clientId);
        if (retried && !this.runner) this.deps.notifyPeers?.({ type: 'outbox' });
        return retried;
      },
      discardWrite: (clientId) => this.outbox.discard(clientId),
      upload:
        deps.upload ?? (typeof XMLHttpRequest === 'undefined' ? fetchUploader(deps.fetch) : xhrUploader),
      session: {
        login: (username, password) => this.login(username, password),
        keepDeviceToken: (username, password, token) => this.auth.keepDeviceToken(username, password, token),
        logout: (reason) => this.logout(reason),
        renew: (username, password, call) => this.renewSession(username, password, call),
        withoutHub: (call, ended) => this.session.withoutHub(call, ended),
      },
      refreshNotificationCount: () => this.refreshNotifications(),
    };
    this.moduleRegistry = createModules(ctx, {
      session: this.sessionModule(),
      systemNotices: (messages) =>
        new SystemNotices(ctx, messages, deps.broadcast, () => this.sightChanged()),
    });
    this.notices = this.moduleRegistry.systemNotices;
    const every: readonly SyncModule<object>[] = Object.values(this.moduleRegistry);
    this.modules = every.filter((module) => module.runsIn(config.features));
    this.userTables = every.flatMap((module) => module.tables);
    for (const module of this.modules) {
      for (const [name, handler] of Object.entries(module.hears)) if (handler) this.on(name, handler);
    }
    this.commands = commandsOf(this.moduleRegistry);
    this.outboxKinds = outboxKindsOf(this.moduleRegistry);
  }

  /** The core's own commands and tables: the session, the outbox, subscriptions, caches. */
  private sessionModule(): SyncModule<SessionApi> {
    const { db } = this.deps;
    return {
      commands: {
        login: (username, password) => this.login(username, password),
        logout: (reason) => done(this.logout(reason)),
        quickExit: () => done(this.session.quickExit()),
        exitHandle: async () => ok(await this.session.exitHandle()),
        becameVisible: () => done(this.becameVisible()),
        networkChanged: (online) => done(this.onOnline(online)),
        checkConnection: () => done(Promise.resolve(this.checkConnection())),
        clearThreadCache: () => done(this.reloadLists(false)),
        clearMyPagesCache: () => done(this.reloadLists(true)),
        reportError: async (report) => done(Promise.resolve(this.clientLog.report(report))),
        enqueue: async (write) => ok(await this.enqueue(write)),
        flushOutbox: () => done(this.flushOutbox()),
        subscribe: async (key, mode) => ok(await this.subscribe(key, mode)),
        unsubscribe: (key) => done(this.unsubscribe(key)),
      },
      tables: [db.profile, db.outbox],
      runsIn: everyVariant,
      hears: {
        [HUB_EVENTS.notificationCreated]: () => this.refreshNotifications(),
        [HUB_EVENTS.contactUpdated]: async () => void (await this.session.refreshProfile()),
      },
    };
  }

  /**
   * SPEC §2: the logo clears the cached thread list, my pages its cached data. The lists live in the
   * database for offline reading, so "cleared" means fetched again now: what the server no longer
   * has goes, and offline the copy stays (a failed load removes nothing).
   */
  private async reloadLists(myPages: boolean): Promise<void> {
    const loads: Promise<unknown>[] = [this.commands.loadConversations('mine')];
    if (myPages) loads.push(this.commands.loadNotifications(), this.commands.loadContactMessages());
    await Promise.allSettled(loads);
  }

  get isRunner(): boolean {
    return this.runner;
  }

  /** The modules' `hears` are registered here; a test may hear an event too. */
  on(eventName: string, handler: HubEventHandler): void {
    this.handlers.set(eventName, [...(this.handlers.get(eventName) ?? []), handler]);
  }

  /** Worker start: SPEC §4 startup (the runner refreshes first; others only check). */
  async start(runner: boolean): Promise<void> {
    this.runner = runner;
    if (runner) await this.outbox.start();
    await this.authCheck(runner);
  }

  /** Dedicated-worker fallback: this worker won the `portal-hub-leader` lock. */
  async becomeRunner(): Promise<void> {
    if (this.runner) return;
    this.runner = true;
    this.deps.notifyPeers?.({ type: 'leader' });
    await this.outbox.start();
    await this.authCheck(false);
    for (const [key, mode] of this.ownSubscriptions) void this.hub.subscribe(key, mode);
    this.attention.stopTelling();
    this.hub.wake();
    // While no tab held the hub (the leader's tab closed, this one had not yet won the lock), what
    // was written reached no one live: it is fetched by cursor now, not at the next refetch.
    void this.catchUp();
  }

  /**
   * SubscribeToEntity for a tab. A worker without the hub (fallback, not leader) passes the request to
   * the leader and answers true: the leader retries, and re-subscribes after each reconnect.
   */
  async subscribe(key: string, mode: SubscribeMode = 'default'): Promise<boolean> {
    this.ownSubscriptions.set(key, mode);
    if (mode === 'group') this.sightChanged();
    if (this.runner) return this.hub.subscribe(key, mode);
    this.deps.notifyPeers?.({ type: 'subscribe', entityKey: key, mode });
    return true;
  }

  async unsubscribe(key: string): Promise<void> {
    if (this.ownSubscriptions.get(key) === 'group') queueMicrotask(() => this.sightChanged());
    this.ownSubscriptions.delete(key);
    if (this.runner) await this.hub.unsubscribe(key);
    else this.deps.notifyPeers?.({ type: 'unsubscribe', entityKey: key });
  }

  login(username: string, password: string | null): Promise<LoginResult> {
    return this.session.login(username, password);
  }

  /** See SessionLifecycle.renewSession (a password change). */
  renewSession<C extends ErrorCode>(
    username: string,
    password: string,
    call: (token: string) => Promise<Result<void, C>>,
  ): Promise<Result<void, C | 'signed_out' | 'failed'>> {
    return this.session.renewSession(username, password, call);
  }

  logout(reason: SignOutReason = 'user'): Promise<void> {
    return this.session.logout(reason);
  }

  /** SPEC §4 authentication check (see SessionLifecycle.authCheck). */
  authCheck(refreshFirst: boolean): Promise<boolean> {
    return this.session.authCheck(refreshFirst);
  }

  /** The header dot; also after the account's notification and contact-message writes (SPEC §7). */
  refreshNotifications(): Promise<void> {
    return this.session.refreshNotifications();
  }

  async becameVisible(): Promise<void> {
    this.checkConnection();
    await this.authCheck(false);
  }

  /** See SessionApi.checkConnection; a fallback worker without the hub asks the leader. */
  checkConnection(): void {
    if (this.runner) this.hub.hint();
    else this.deps.notifyPeers?.({ type: 'check' });
  }

  /**
   * Whether a dead line costs the child now, so that it is checked every second: a visible tab shows
   * the live chat, or a group chat is open in a visible tab (here or, in the fallback, in a peer's),
   * or a write waits for the line or the server.
   */
  private lineMatters(): boolean {
    return this.ownAttention() || this.attention.any() || this.outbox.waiting;
  }

  private ownAttention(): boolean {
    const groupOpen = [...this.ownSubscriptions.values()].includes('group');
    return this.notices.chatSeen || (groupOpen && this.notices.anyTabVisible);
  }

  /** What this worker's tabs show changed: the leader's line check follows it. */
  private sightChanged(): void {
    if (this.runner) {
      this.hub.wake();
      return;
    }
    this.attention.own(this.ownAttention());
  }

  /** `/healthz` answers within `timeoutMs` with a 2xx: the line to the server works. */
  private async serverAnswers(timeoutMs: number): Promise<boolean> {
    const { clock, config } = this.deps;
    const abort = new AbortController();
    const timer = clock.setTimeout(() => abort.abort(), timeoutMs);
    try {
      const response = await this.deps.fetch(new URL('/healthz', config.apiUrl).toString(), {
        signal: abort.signal,
      });
      await response.body?.cancel().catch(() => undefined);
      return response.ok;
    } catch {
      return false;
    } finally {
      clock.clearTimeout(timer);
    }
  }

  /**
   * Every call's answer: one that got none while the hub looked alive is a sign the line died (it
   * is checked at once); a server error (5xx) is told on screen, until an answer below 500.
   */
  private answered(status: number): void {
    if (status === 0) {
      if (this.runner) this.hub.noAnswer();
      return;
    }
    const trouble = isServerError(status);
    if (trouble === this.serverTrouble) return;
    this.serverTrouble = trouble;
    void updateRuntime(this.deps.db, { serverTrouble: trouble }).catch((error: unknown) =>
      console.warn('Server state not written', error),
    );
  }

  async enqueue(write: OutboxWriteRequest): Promise<string> {
    const clientId = await this.outbox.enqueue(write);
    if (!this.runner) this.deps.notifyPeers?.({ type: 'outbox' });
    return clientId;
  }

  async flushOutbox(): Promise<void> {
    if (this.runner) await this.outbox.flush();
    else this.deps.notifyPeers?.({ type: 'outbox' });
  }

  /** Another data worker of this browser signed in or out, or queued a write. */
  async onPeerMessage(message: PeerMessage): Promise<void> {
    switch (message.type) {
      case 'signed-in':
        await this.authCheck(false);
        break;
      case 'signed-out':
        await this.session.stopSession();
        break;
      case 'leader':
        for (const [key, mode] of this.ownSubscriptions) {
          this.deps.notifyPeers?.({ type: 'subscribe', entityKey: key, mode });
        }
        this.attention.tellAgain();
        break;
      case 'attention':
        this.attention.heard(message.worker, message.on);
        if (this.runner) this.hub.wake();
        break;
      case 'check':
        if (this.runner) this.hub.hint();
        break;
      default:
        if (!this.runner) break;
        if (message.type === 'outbox') await this.outbox.pump();
        else if (message.type === 'subscribe') await this.hub.subscribe(message.entityKey, message.mode);
        else await this.hub.unsubscribe(message.entityKey);
    }
  }

  /**
   * The browser went online or offline (its own event, or a tab's). Back online, the runner does not
   * wait for any backoff: the hub connects again at once, waiting writes are retried, and what was
   * missed meanwhile is fetched. A runner that could not check the session offline checks it now,
   * which starts everything a sign-in starts.
   */
  async onOnline(online: boolean): Promise<void> {
    await updateRuntime(this.deps.db, { online });
    if (!online || !this.runner) return;
    const flushed = this.outbox.flush();
    if (!this.session.authenticated) await Promise.all([flushed, this.authCheck(false)]);
    else {
      // A connected hub may be a socket that died with the old network: it is checked at once.
      this.hub.hint();
      await Promise.all([flushed, this.hub.reconnectNow(), this.catchUp()]);
    }
  }

  /**
   * Fetches what may have been missed while the line was down, for everything open: after the
   * network came back and after every hub reconnect. Calls while one runs make one more run after
   * it (the first may have started before the line was really back), never more.
   */
  catchUp(): Promise<void> {
    if (!this.runner || !this.session.authenticated) return Promise.resolve();
    if (this.catchingUp) {
      this.catchUpAgain = true;
      return this.catchingUp;
    }
    const run = async () => {
      do {
        this.catchUpAgain = false;
        await Promise.all([
          ...this.modules.map((module) =>
            module
              .catchUp?.()
              .catch((error: unknown) => this.clientLog.report({ message: `Catch-up: ${String(error)}` })),
          ),
          this.refreshNotifications(),
        ]);
      } while (this.catchUpAgain && this.runner && this.session.authenticated);
    };
    this.catchingUp = run().finally(() => {
      this.catchingUp = null;
    });
    return this.catchingUp;
  }

  /** A newer build runs: this (old) worker gives the connection up. */
  async retire(): Promise<void> {
    this.runner = false;
    this.auth.stopRefresh();
    this.session.stopSessionCheck();
    this.outbox.stop();
    this.clientLog.stop();
    await this.hub.stop();
  }

  /**
   * An event's handlers start together (as the events themselves do): one that waits for the server
   * (the header's count) holds up none of the others (a system notice).
   */
  private async route(eventName: string, data: unknown, key: string): Promise<void> {
    await Promise.all(
      (this.handlers.get(eventName) ?? []).map(async (handler) => {
        try {
          await handler(data, key);
        } catch (error) {
          this.clientLog.report({ message: `Hub event ${eventName}: ${String(error)}` });
        }
      }),
    );
  }

  /** The hub events some running module hears (the core routes each to its handlers). */
  heardEvents(): string[] {
    return [...this.handlers.keys()];
  }
}
