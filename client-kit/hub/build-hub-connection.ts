import {
  HubConnectionBuilder,
  LogLevel,
  type HttpTransportType,
  type HubConnection,
} from '@microsoft/signalr';
import { HUB_PATH } from '../../contract/hub.ts';
import { HUB_RECONNECT_DELAYS_MS } from '../../contract/timings.ts';

export interface HubConnectionOptions {
  /** `{signalHubUrl}` of the runtime config: the origin the hub path hangs off. */
  signalHubUrl: string;
  accessToken(): Promise<string>;
  /** Leave out for SignalR's choice (WebSockets, then Server-Sent Events, then long polling). */
  transport?: HttpTransportType;
  logLevel?: LogLevel;
  /**
   * Sent on negotiate and every long-polling or event-stream request (SPEC §1: the variant header on
   * every request). A browser's WebSocket carries no headers of ours.
   */
  headers?: Record<string, string>;
}

/**
 * The SignalR connection of SPEC §7 to `/hubs/portalaccountevents`, reconnecting by itself after
 * the SPEC §4 delays (0, 2, 10 and 30 s) and then closing; HubKeeper starts a closed one again.
 */
export function buildHubConnection(options: HubConnectionOptions): HubConnection {
  // An absolute URL: a relative one throws inside a worker (ARCHITECTURE.md, Known traps).
  const url = new URL(HUB_PATH, options.signalHubUrl).toString();
  return new HubConnectionBuilder()
    .withUrl(url, {
      accessTokenFactory: options.accessToken,
      ...(options.headers ? { headers: options.headers } : {}),
      ...(options.transport === undefined ? {} : { transport: options.transport }),
    })
    .withAutomaticReconnect([...HUB_RECONNECT_DELAYS_MS])
    .configureLogging(options.logLevel ?? LogLevel.None)
    .build();
}
