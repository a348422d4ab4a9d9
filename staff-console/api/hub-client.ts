import { HttpTransportType, LogLevel } from '@microsoft/signalr';
import { HubKeeper, type HubState } from '../../client-kit/hub/hub-keeper.ts';
import { systemTimer } from '../../client-kit/hub/timer.ts';

export type HubEventHandler = (data: unknown, entityKey: string) => void;
export type HubStatus = 'connecting' | 'connected' | 'reconnecting' | 'disconnected';

const STATUS_OF: Record<HubState, HubStatus> = {
  Connecting: 'connecting',
  Connected: 'connected',
  Reconnecting: 'reconnecting',
  Disconnecting: 'disconnected',
  Disconnected: 'disconnected',
};

/**
 * The console's one SignalR connection (client-kit's HubKeeper: SPEC reconnect delays, restarts,
 * subscriptions counted per entity key and renewed after each reconnect), with listeners for the
 * screens: handlers per event name, the connection's status, and "back after a loss".
 */
export class HubClient {
  private readonly keeper: HubKeeper;
  private readonly handlers = new Map<string, Set<HubEventHandler>>();
  private readonly statusListeners = new Set<(status: HubStatus) => void>();
  private readonly reconnectListeners = new Set<() => void>();
  status: HubStatus = 'connecting';

  constructor(signalHubUrl: string, accessToken: () => Promise<string>) {
    this.keeper = new HubKeeper({
      signalHubUrl,
      timer: systemTimer,
      accessToken,
      transport: HttpTransportType.WebSockets | HttpTransportType.LongPolling,
      logLevel: LogLevel.Warning,
      onState: (state) => this.setStatus(STATUS_OF[state]),
      onEvent: (eventName, data, entityKey) => {
        for (const handler of this.handlers.get(eventName) ?? []) handler(data, entityKey);
      },
      onError: (message) => console.warn(`staff hub: ${message}`),
      onReconnected: () => {
        for (const listener of this.reconnectListeners) listener();
      },
    });
  }

  start() {
    void this.keeper.start();
  }

  stop(): Promise<void> {
    return this.keeper.stop();
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

  /** Holds an entity key while the returned release has not been called (counted per key). */
  subscribe(entityKey: string): () => void {
    void this.keeper.subscribe(entityKey);
    return () => void this.keeper.unsubscribe(entityKey);
  }

  private setStatus(status: HubStatus) {
    this.status = status;
    for (const listener of this.statusListeners) listener(status);
  }
}
