import {
  HubConnectionBuilder,
  HubConnectionState,
  LogLevel,
  type HttpTransportType,
  type HubConnection,
} from '@microsoft/signalr';
import { HUB_CLIENT_EVENT, HUB_METHODS, HUB_PATH } from '../../contract/hub.ts';
import type { HubState } from '../client/api.ts';
import { delay, type Clock } from '../clock.ts';

/** SPEC §4 / §9 reconnect delays; after the last one the connection closes and we start it again. */
export const RECONNECT_DELAYS_MS = [0, 2000, 10_000, 30_000];
/** Waits between our own restarts after a close or a failed start. */
const RESTART_DELAYS_MS = [2000, 5000, 10_000, 30_000];
export const SUBSCRIBE_RETRY = {
  default: { tries: 3, waitMs: 1500 },
  group: { tries: 30, waitMs: 5000 },
} as const;

export interface HubDeps {
  signalHubUrl: string;
  clock: Clock;
  accessToken(): Promise<string | null>;
  onState(state: HubState): void;
  onEvent(eventName: string, data: unknown, entityKey: string): void;
  onError?(message: string): void;
  /** The server refused the token (negotiate 401): the session may have ended elsewhere. */
  onUnauthorized?(): void;
  transport?: HttpTransportType;
  logLevel?: LogLevel;
}

/**
 * The one SignalR connection of SPEC §4 / §7. Wanted while signed in: it reconnects with the spec's
 * delays, is started again whenever it closes, and re-subscribes every entity after each reconnect.
 */
export class HubClient {
  private connection: HubConnection | null = null;
  private wanted = false;
  private starting: Promise<void> | null = null;
  private restarts = 0;
  private readonly subscriptions = new Set<string>();

  constructor(private readonly deps: HubDeps) {}

  get state(): HubState {
    return (this.connection?.state as HubState | undefined) ?? 'Disconnected';
  }

  start(): Promise<void> {
    this.wanted = true;
    // A start in progress is awaited to its end, re-subscriptions included.
    if (this.starting) return this.starting;
    if (this.connection?.state === HubConnectionState.Connected) return Promise.resolve();
    this.starting ??= this.startOnce().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  async stop(): Promise<void> {
    this.wanted = false;
    const connection = this.connection;
    this.connection = null;
    if (connection) {
      await connection.stop().catch(() => undefined);
      this.deps.onState('Disconnected');
    }
  }

  /** SubscribeToEntity with the retries of SPEC §4; the key is re-subscribed after every reconnect. */
  async subscribe(entityKey: string, mode: 'default' | 'group' = 'default'): Promise<boolean> {
    this.subscriptions.add(entityKey);
    const { tries, waitMs } = SUBSCRIBE_RETRY[mode];
    for (let attempt = 1; attempt <= tries; attempt++) {
      const connection = this.connection;
      if (connection?.state === HubConnectionState.Connected) {
        try {
          await connection.invoke(HUB_METHODS.subscribe, entityKey);
          return true;
        } catch (error) {
          this.deps.onError?.(`SubscribeToEntity ${entityKey}: ${String(error)}`);
        }
      }
      if (attempt < tries) await delay(this.deps.clock, waitMs);
    }
    return false;
  }

  async unsubscribe(entityKey: string): Promise<void> {
    this.subscriptions.delete(entityKey);
    if (this.connection?.state !== HubConnectionState.Connected) return;
    await this.connection.invoke(HUB_METHODS.unsubscribe, entityKey).catch(() => undefined);
  }

  private async startOnce(): Promise<void> {
    // SPEC §8: without a hub URL or a token the connection is skipped with a console warning.
    if (!this.deps.signalHubUrl || !(await this.deps.accessToken())) {
      console.warn('Real-time connection skipped: no hub URL or not signed in');
      return;
    }
    const connection = (this.connection ??= this.build());
    if (connection.state !== HubConnectionState.Disconnected) return;
    this.deps.onState('Connecting');
    try {
      await connection.start();
      this.restarts = 0;
      this.deps.onState('Connected');
      await this.resubscribe(connection);
    } catch (error) {
      this.deps.onState('Disconnected');
      this.deps.onError?.(`Hub start failed: ${String(error)}`);
      if ((error as { statusCode?: number }).statusCode === 401) this.deps.onUnauthorized?.();
      this.restartLater(connection);
    }
  }

  private build(): HubConnection {
    // An absolute URL: a relative one throws inside a worker (ARCHITECTURE.md, Known traps).
    const url = new URL(HUB_PATH, this.deps.signalHubUrl).toString();
    const connection = new HubConnectionBuilder()
      .withUrl(url, {
        accessTokenFactory: async () => (await this.deps.accessToken()) ?? '',
        ...(this.deps.transport === undefined ? {} : { transport: this.deps.transport }),
      })
      .withAutomaticReconnect(RECONNECT_DELAYS_MS)
      .configureLogging(this.deps.logLevel ?? LogLevel.None)
      .build();
    connection.on(HUB_CLIENT_EVENT, (eventName: string, data: unknown, entityKey: string) =>
      this.deps.onEvent(eventName, data, entityKey),
    );
    connection.onreconnecting(() => {
      this.deps.onState('Reconnecting');
      this.deps.onError?.('Hub reconnecting');
    });
    connection.onreconnected(() => {
      this.deps.onState('Connected');
      this.deps.onError?.('Hub connection reestablished');
      void this.resubscribe(connection);
    });
    connection.onclose(() => {
      this.deps.onState('Disconnected');
      this.restartLater(connection);
    });
    return connection;
  }

  private restartLater(connection: HubConnection): void {
    if (!this.wanted || this.connection !== connection) return;
    const wait = RESTART_DELAYS_MS[Math.min(this.restarts, RESTART_DELAYS_MS.length - 1)] ?? 30_000;
    this.restarts++;
    this.deps.clock.setTimeout(() => {
      if (this.wanted && this.connection === connection) void this.start();
    }, wait);
  }

  private async resubscribe(connection: HubConnection): Promise<void> {
    for (const key of this.subscriptions) {
      await connection.invoke(HUB_METHODS.subscribe, key).catch((error: unknown) => {
        this.deps.onError?.(`Re-subscribe ${key}: ${String(error)}`);
      });
    }
  }
}
