import {
  HubConnectionState,
  type HttpTransportType,
  type HubConnection,
  type LogLevel,
} from '@microsoft/signalr';
import { HUB_CLIENT_EVENT } from '../../contract/hub.ts';
import { buildHubConnection } from './build-hub-connection.ts';
import { EntitySubscriptions, type SubscribeMode } from './entity-subscriptions.ts';
import type { Timer } from './timer.ts';

/** The connection's state, by SignalR's names. */
export type HubState = 'Disconnected' | 'Connecting' | 'Connected' | 'Disconnecting' | 'Reconnecting';

/** Waits between our own restarts after the connection closed (SignalR gave up) or a start failed. */
export const HUB_RESTART_DELAYS_MS = [2000, 5000, 10_000, 30_000] as const;

export interface HubKeeperOptions {
  signalHubUrl: string;
  timer: Timer;
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
  private wanted = false;
  private starting: Promise<void> | null = null;
  private restarts = 0;
  /** A connection was lost or a start failed since the last good start: the next one is a reconnect. */
  private lost = false;
  private readonly subscriptions: EntitySubscriptions;

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

  /** Starts the connection, or joins a start under way (re-subscriptions included). */
  start(): Promise<void> {
    this.wanted = true;
    if (this.starting) return this.starting;
    if (this.connection?.state === HubConnectionState.Connected) return Promise.resolve();
    this.starting = this.startOnce().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  async stop(): Promise<void> {
    this.wanted = false;
    this.lost = false;
    const connection = this.connection;
    this.connection = null;
    this.subscriptions.connectionLost();
    if (connection) {
      await connection.stop().catch(() => undefined);
      this.options.onState('Disconnected');
    }
  }

  /**
   * The network is back (the browser's `online`): a connection that is reconnecting, waiting for a
   * restart or stuck in a start made while the line was down is dropped and started again at once,
   * instead of after SignalR's or our own wait (up to 30 s). A connected one is left alone. Does
   * nothing unless the connection is wanted.
   */
  async reconnectNow(): Promise<void> {
    if (!this.wanted) return;
    const connection = this.connection;
    if (connection?.state === HubConnectionState.Connected) return;
    if (connection) {
      // Forgotten first, so its close and its failing start do not schedule a restart of their own.
      this.connection = null;
      this.lost = true;
      this.subscriptions.connectionLost();
      await connection.stop().catch(() => undefined);
    }
    await this.starting?.catch(() => undefined);
    this.restarts = 0;
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
    this.options.onState('Connecting');
    try {
      await connection.start();
      this.restarts = 0;
      this.options.onState('Connected');
      await this.subscriptions.resubscribeAll();
      if (this.lost) {
        this.lost = false;
        this.options.onReconnected?.();
      }
    } catch (error) {
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
    const connection = buildHubConnection({
      signalHubUrl: this.options.signalHubUrl,
      accessToken: async () => (await this.options.accessToken()) ?? '',
      ...(this.options.transport === undefined ? {} : { transport: this.options.transport }),
      ...(this.options.logLevel === undefined ? {} : { logLevel: this.options.logLevel }),
      ...(this.options.headers ? { headers: this.options.headers } : {}),
    });
    connection.on(HUB_CLIENT_EVENT, (eventName: string, data: unknown, entityKey: string) =>
      this.options.onEvent(eventName, data, entityKey),
    );
    connection.onreconnecting(() => {
      this.subscriptions.connectionLost();
      this.options.onState('Reconnecting');
      this.options.onError?.('Hub reconnecting');
    });
    connection.onreconnected(() => {
      this.options.onState('Connected');
      this.options.onError?.('Hub connection reestablished');
      void this.subscriptions.resubscribeAll();
      this.options.onReconnected?.();
    });
    connection.onclose(() => {
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
    this.options.timer.setTimeout(() => {
      if (this.wanted && this.connection === connection) void this.start();
    }, wait);
  }
}
