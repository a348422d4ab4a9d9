import {
  HubConnectionBuilder,
  LogLevel,
  type HttpTransportType,
  type HubConnection,
  type IRetryPolicy,
} from '@microsoft/signalr';
import { HUB_PATH } from '../../contract/hub.ts';
import type { HubLines } from './hub-lines.ts';
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
  /** What the connection holds open, so that it can be let go of at once (see HubLines). */
  lines?: HubLines;
}

/** How far past SPEC §4's immediate first retry a client may wait: one second. */
export const FIRST_RETRY_SPREAD_MS = 1000;
/** How far past each later SPEC §4 delay a client may wait: a quarter of it. */
export const LATER_RETRY_SPREAD = 0.25;

/**
 * SPEC §4's reconnect delays (0, 2, 10, 30 s, then stop), each spread by a random amount past its
 * value: when a server process stops, the thousands of clients it held would otherwise all come
 * back in the same instant (0 ms) and then again together; spread, they arrive over a second.
 */
export function reconnectDelay(
  previousRetryCount: number,
  random: () => number = Math.random,
): number | null {
  const base = HUB_RECONNECT_DELAYS_MS[previousRetryCount];
  if (base === undefined) return null;
  const spread = base === 0 ? FIRST_RETRY_SPREAD_MS : base * LATER_RETRY_SPREAD;
  return Math.round(base + random() * spread);
}

const RECONNECT_POLICY: IRetryPolicy = {
  nextRetryDelayInMilliseconds: ({ previousRetryCount }) => reconnectDelay(previousRetryCount),
};

/**
 * The SignalR connection of SPEC §7 to `/hubs/portalaccountevents`, reconnecting by itself after
 * the SPEC §4 delays (0, 2, 10 and 30 s, each with its spread) and then closing; HubKeeper starts a closed one again.
 */
export function buildHubConnection(options: HubConnectionOptions): HubConnection {
  // An absolute URL: a relative one throws inside a worker (ARCHITECTURE.md, Known traps).
  const url = new URL(HUB_PATH, options.signalHubUrl).toString();
  return new HubConnectionBuilder()
    .withUrl(url, {
      accessTokenFactory: options.accessToken,
      ...(options.headers ? { headers: options.headers } : {}),
      ...(options.transport === undefined ? {} : { transport: options.transport }),
      ...(options.lines ? { httpClient: options.lines.httpClient } : {}),
      ...(options.lines?.WebSocket ? { WebSocket: options.lines.WebSocket } : {}),
    })
    .withAutomaticReconnect(RECONNECT_POLICY)
    .configureLogging(options.logLevel ?? LogLevel.None)
    .build();
}
