import {
  HttpTransportType,
  HubConnectionBuilder,
  HubConnectionState,
  LogLevel,
  type HubConnection,
} from '@microsoft/signalr';
import { HUB_CLIENT_EVENT, HUB_METHODS, HUB_PATH } from '../../contract/hub.ts';

export type HubEventHandler = (data: unknown, entityKey: string) => void;
export type HubStatus = 'connecting' | 'connected' | 'reconnecting' | 'disconnected';

/** SPEC §9: hub reconnect delays. */
const RECONNECT_DELAYS_MS = [0, 2000, 10000, 30000];

/**
 * The console's one SignalR connection: handlers per event name, and entity subscriptions counted
 * per key so that two screens showing one conversation share one subscription and a reconnect can
 * subscribe again to everything still wanted (a new connection starts with none).
 */
export class HubClient {
  private readonly connection: HubConnection;
  private readonly handlers = new Map<string, Set<HubEventHandler>>();
  private readonly wanted = new Map<string, number>();
  private readonly statusListeners = new Set<(status: HubStatus) => void>();
  private readonly reconnectListeners = new Set<() => void>();
  private stopped = false;
  status: HubStatus = 'connecting';

  constructor(signalHubUrl: string, accessTokenFactory: () => Promise<string>) {
    this.connection = new HubConnectionBuilder()
      .withUrl(new URL(HUB_PATH, signalHubUrl).href, {
        accessTokenFactory,
        transport: HttpTransportType.WebSockets | HttpTransportType.LongPolling,
      })
      .withAutomaticReconnect({
        nextRetryDelayInMilliseconds: (ctx) =>
          RECONNECT_DELAYS_MS[Math.min(ctx.previousRetryCount, RECONNECT_DELAYS_MS.length - 1)] ?? 30000,
      })
      .configureLogging(LogLevel.Warning)
      .build();
    this.connection.on(HUB_CLIENT_EVENT, (eventName: string, data: unknown, entityKey: string) => {
      for (const handler of this.handlers.get(eventName) ?? []) handler(data, entityKey);
    });
    this.connection.onreconnecting(() => this.setStatus('reconnecting'));
    this.connection.onreconnected(() => {
      this.setStatus('connected');
      void this.subscribeAll();
      for (const listener of this.reconnectListeners) listener();
    });
    this.connection.onclose(() => {
      this.setStatus('disconnected');
      if (!this.stopped) this.retryStart(RECONNECT_DELAYS_MS.length - 1);
    });
  }

  start() {
    void this.tryStart(0);
  }

  private async tryStart(attempt: number) {
    if (this.stopped) return;
    this.setStatus('connecting');
    try {
      await this.connection.start();
      this.setStatus('connected');
      await this.subscribeAll();
      if (attempt > 0) for (const listener of this.reconnectListeners) listener();
    } catch (error) {
      if (this.stopped) return;
      console.warn('staff hub: could not connect', error);
      this.setStatus('disconnected');
      this.retryStart(attempt);
    }
  }

  private retryStart(attempt: number) {
    const delay = RECONNECT_DELAYS_MS[Math.min(attempt + 1, RECONNECT_DELAYS_MS.length - 1)] ?? 30000;
    setTimeout(() => void this.tryStart(attempt + 1), delay);
  }

  async stop() {
    this.stopped = true;
    await this.connection.stop();
  }

  on(eventName: string, handler: HubEventHandler): () => void {
    const set = this.handlers.get(eventName) ?? new Set();
    set.add(handler);
    this.handlers.set(eventName, set);
    return () => set.delete(handler);
  }

  onStatus(listener: (status: HubStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** After a reconnect events may have been missed: screens refetch. */
  onReconnected(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    return () => this.reconnectListeners.delete(listener);
  }

  subscribe(entityKey: string): () => void {
    const count = this.wanted.get(entityKey) ?? 0;
    this.wanted.set(entityKey, count + 1);
    if (count === 0) void this.invoke(HUB_METHODS.subscribe, entityKey);
    return () => {
      const left = (this.wanted.get(entityKey) ?? 1) - 1;
      if (left > 0) {
        this.wanted.set(entityKey, left);
        return;
      }
      this.wanted.delete(entityKey);
      void this.invoke(HUB_METHODS.unsubscribe, entityKey);
    };
  }

  private async subscribeAll() {
    await Promise.all([...this.wanted.keys()].map((key) => this.invoke(HUB_METHODS.subscribe, key)));
  }

  private async invoke(method: string, entityKey: string) {
    if (this.connection.state !== HubConnectionState.Connected) return;
    try {
      await this.connection.invoke(method, entityKey);
    } catch (error) {
      console.warn(`staff hub: ${method} ${entityKey} failed`, error);
    }
  }

  private setStatus(status: HubStatus) {
    this.status = status;
    for (const listener of this.statusListeners) listener(status);
  }
}
