import {
  HubConnectionState,
  type HttpTransportType,
  type HubConnection,
  type LogLevel,
} from '@microsoft/signalr';
import { HUB_CLIENT_EVENT, HUB_METHODS } from '../../contract/hub.ts';
import { buildHubConnection } from './build-hub-connection.ts';
import { HubLines } from './hub-lines.ts';
import { EntitySubscriptions, type SubscribeMode } from './entity-subscriptions.ts';
import { atMost, type Timer } from './timer.ts';

/** The connection's state, by SignalR's names. */
export type HubState = 'Disconnected' | 'Connecting' | 'Connected' | 'Disconnecting' | 'Reconnecting';

/** How long `stop()` waits for the connection to close (a dead line may never let it). */
export const STOP_WAIT_MS = 1000;

/** Waits between our own restarts after the connection closed (SignalR gave up) or a start failed. */
export const HUB_RESTART_DELAYS_MS = [2000, 5000, 10_000, 30_000] as const;

export interface HubKeeperOptions {
  signalHubUrl: string;
  timer: Timer;
  /** The clock `startedAt` reads (the worker's); Date.now by default. */
  now?: () => number;
  /**
   * A usable access token. Null means signed out: the connection is not started (until `start()` is
   * called again). A token that cannot be had now (an error) counts as a failed start, tried again.
   */
  accessToken(): Promise<string | null>;
  onState(state: HubState): void;
  /** Every `SendEvent(eventName, data, entityKey)` of the server. */
  onEvent(eventName: string, data: unknown, entityKey: string): void;
  /** What went wrong or changed, for a log (never for the screen). */
  onError?(message: string): void;
  /** The server refused the token (negotiate 401): the session may have ended elsewhere. */
  onUnauthorized?(): void;
  /** The connection is back after it was lost: events may have been missed meanwhile. */
  onReconnected?(): void;
  /** Something came from the server on the connection (an event, a ping's answer): it is alive. */
  onHeard?(): void;
  transport?: HttpTransportType;
  logLevel?: LogLevel;
  /** See HubConnectionOptions.headers. */
  headers?: Record<string, string>;
}

/**
 * Keeps the one SignalR connection of SPEC §4 / §7 up while it is wanted (from `start()` to
 * `stop()`): it reconnects with the spec's delays, is started again whenever it closes, and
 * subscribes every held entity again after each reconnect. Shared by the child app's data worker
 * and the staff console.
 */
export class HubKeeper {
  private connection: HubConnection | null = null;
  /** What each connection holds open on the network, let go of when the connection is given up. */
  private readonly lines = new WeakMap<HubConnection, HubLines>();
  private wanted = false;
  private starting: Promise<void> | null = null;
  private restarts = 0;
  /** The restart waiting after a close (restartLater), cleared when the connection is no longer wanted. */
  private restartTimer: unknown = null;
  /** A connection was lost or a start failed since the last good start: the next one is a reconnect. */
  private lost = false;
  private readonly subscriptions: EntitySubscriptions;
  /** When the start under way began (the timer's clock), or null while none runs. */
  private startBegan: number | null = null;

  constructor(private readonly options: HubKeeperOptions) {
    this.subscriptions = new EntitySubscriptions({
      timer: options.timer,
      connected: () => (this.connection?.state === HubConnectionState.Connected ? this.connection : null),
      ...(options.onError ? { onError: options.onError } : {}),
    });
  }

  get state(): HubState {
    return (this.connection?.state as HubState | undefined) ?? 'Disconnected';
  }

  /** When the start under way began (on `now`), or null while none runs. */
  get startedAt(): number | null {
    return this.startBegan;
  }

  /**
   * One round trip on the connection: the hub's `Ping`, answered within `timeoutMs`. False when the
   * connection is not connected, or no answer came in time. A server too old to know the method
   * answers with an error, which proves the line as well as a result does.
   */
  ping(timeoutMs: number): Promise<boolean> {
    const connection = this.connection;
    if (connection?.state !== HubConnectionState.Connected) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      this.options.timer.setTimeout(() => resolve(false), timeoutMs);
      connection.invoke(HUB_METHODS.ping).then(
        () => {
          this.options.onHeard?.();
          resolve(true);
        },
        () => {
          // An error the server sent back leaves the connection up; a closed one does not.
          const answered = connection.state === HubConnectionState.Connected;
          if (answered) this.options.onHeard?.();
          resolve(answered);
        },
      );
    });
  }

  /** Starts the connection, or joins a start under way (re-subscriptions included). */
  start(): Promise<void> {
    this.wanted = true;
    if (this.starting) return this.starting;
    if (this.connection?.state === HubConnectionState.Connected) return Promise.resolve();
    const starting = this.startOnce().finally(() => {
      if (this.starting === starting) this.starting = null;
    });
    this.starting = starting;
    return starting;
  }

  async stop(): Promise<void> {
    this.wanted = false;
    this.lost = false;
    // A restart the connection's close scheduled (the server ended it first: a revoked token).
    if (this.restartTimer !== null) this.options.timer.clearTimeout(this.restartTimer);
    this.restartTimer = null;
    const connection = this.connection;
    this.connection = null;
    this.subscriptions.connectionLost();
    if (connection) {
      // A start into a dead line holds SignalR's stop until the start gives up (its negotiate waits
      // up to 100 s): the connection is forgotten at once, and waited for a moment at most.
      await atMost(
        this.options.timer,
        STOP_WAIT_MS,
        connection.stop().catch(() => undefined),
      );
      // Whatever it still holds (that start's negotiate) is let go of now.
      this.lines.get(connection)?.drop();
      this.options.onState('Disconnected');
    }
  }

  /**
   * The network is back (the browser's `online`): a connection that is reconnecting, waiting for a
   * restart or stuck in a start made while the line was down is dropped and started again at once,
   * instead of after SignalR's or our own wait (up to 30 s). A connected one is left alone, unless
   * `dead`: its line was found dead (a ping went unanswered), though the socket never closed. Does
   * nothing unless the connection is wanted.
   */
  async reconnectNow({ dead = false }: { dead?: boolean } = {}): Promise<void> {
    if (!this.wanted) return;
    const connection = this.connection;
    if (connection?.state === HubConnectionState.Connected && !dead) return;
    if (connection) {
      // Forgotten first, so its close and its failing start do not schedule a restart of their own,
      // and not waited for: closing a socket whose line is dead can take the browser a minute.
      this.connection = null;
      this.lost = true;
      this.subscriptions.connectionLost();
      this.startBegan = null;
      this.options.onState('Reconnecting');
      void connection.stop().catch(() => undefined);
      // Its requests and sockets too: a start hung in a dead line would hold one of the browser's
      // few connections to the server for up to 100 s (see HubLines).
      this.lines.get(connection)?.drop();
    }
    this.restarts = 0;
    // A start under way belongs to the forgotten connection: it ends on its own (stopped above).
    this.starting = null;
    await this.start();
  }

  /** Holds `entityKey` (counted per key): SubscribeToEntity with the retries of SPEC §4. */
  subscribe(entityKey: string, mode: SubscribeMode = 'default'): Promise<boolean> {
    return this.subscriptions.subscribe(entityKey, mode);
  }

  /** Asks again for a key already held when it is not subscribed on this connection. */
  confirm(entityKey: string, mode: SubscribeMode = 'default'): Promise<boolean> {
    return this.subscriptions.confirm(entityKey, mode);
  }

  /** Lets go of `entityKey` once; the last holder's release sends UnsubscribeFromEntity. */
  unsubscribe(entityKey: string): Promise<void> {
    return this.subscriptions.unsubscribe(entityKey);
  }

  private async startOnce(): Promise<void> {
    // SPEC §8: without a hub URL or a token the connection is skipped with a console warning.
    if (!this.options.signalHubUrl || (await this.signedOut())) {
      console.warn('Real-time connection skipped: no hub URL or not signed in');
      return;
    }
    const connection = (this.connection ??= this.build());
    if (connection.state !== HubConnectionState.Disconnected) return;
    // A start after a loss is a reconnect, and told as one (the chat window's notice says so).
    this.options.onState(this.lost ? 'Reconnecting' : 'Connecting');
    this.startBegan = (this.options.now ?? Date.now)();
    try {
      await connection.start();
      if (this.connection !== connection) return;
      this.startBegan = null;
      this.restarts = 0;
      this.options.onState('Connected');
      await this.subscriptions.resubscribeAll();
      if (this.lost) {
        this.lost = false;
        this.options.onReconnected?.();
      }
    } catch (error) {
      if (this.connection !== connection) return;
      this.startBegan = null;
      this.lost = true;
      this.options.onState('Disconnected');
      this.options.onError?.(`Hub start failed: ${String(error)}`);
      if ((error as { statusCode?: number }).statusCode === 401) this.options.onUnauthorized?.();
      this.restartLater(connection);
    }
  }

  /** No token because nobody is signed in; a token that failed to come is the start's failure. */
  private async signedOut(): Promise<boolean> {
    try {
      return !(await this.options.accessToken());
    } catch {
      return false;
    }
  }

  private build(): HubConnection {
    const lines = new HubLines();
    const connection = buildHubConnection({
      lines,
      signalHubUrl: this.options.signalHubUrl,
      accessToken: async () => (await this.options.accessToken()) ?? '',
      ...(this.options.transport === undefined ? {} : { transport: this.options.transport }),
      ...(this.options.logLevel === undefined ? {} : { logLevel: this.options.logLevel }),
      ...(this.options.headers ? { headers: this.options.headers } : {}),
    });
    this.lines.set(connection, lines);
    connection.on(HUB_CLIENT_EVENT, (eventName: string, data: unknown, entityKey: string) => {
      this.options.onHeard?.();
      this.options.onEvent(eventName, data, entityKey);
    });
    // A connection dropped by reconnectNow is no longer this keeper's: what it does next is ignored.
    connection.onreconnecting(() => {
      if (this.connection !== connection) return;
      this.subscriptions.connectionLost();
      this.options.onState('Reconnecting');
      this.options.onError?.('Hub reconnecting');
    });
    connection.onreconnected(() => {
      if (this.connection !== connection) return;
      this.options.onState('Connected');
      this.options.onError?.('Hub connection reestablished');
      void this.subscriptions.resubscribeAll();
      this.options.onReconnected?.();
    });
    connection.onclose(() => {
      if (this.connection !== connection) return;
      this.subscriptions.connectionLost();
      this.options.onState('Disconnected');
      if (this.wanted && this.connection === connection) this.lost = true;
      this.restartLater(connection);
    });
    return connection;
  }

  private restartLater(connection: HubConnection): void {
    if (!this.wanted || this.connection !== connection) return;
    const wait = HUB_RESTART_DELAYS_MS[Math.min(this.restarts, HUB_RESTART_DELAYS_MS.length - 1)] ?? 30_000;
    this.restarts++;
    this.restartTimer = this.options.timer.setTimeout(() => {
      this.restartTimer = null;
      if (this.wanted && this.connection === connection) void this.start();
    }, wait);
  }
}
