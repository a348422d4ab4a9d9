import type { FastifyInstance } from 'fastify';
import type { Principal } from '../auth/principal.ts';
import type { RefusedSubscriptions, TransportKind } from './connection.ts';

export type { TransportKind };

/** What the hub tells the site's metrics (server/metrics.ts). */
export interface HubObserver {
  /** An event reached `connections` connections of this process; `publishedAt` is when it was published. */
  delivered(connections: number, publishedAt: number | undefined): void;
  /** The Redis backplane lost its connection (events from other processes cannot arrive). */
  backplaneLost(): void;
  /** ... and has it back. */
  backplaneRecovered(): void;
  /** A client's invocation: served within the connection's budget, or throttled past it. */
  invocation?(outcome: 'served' | 'throttled'): void;
  /**
   * A SubscribeToEntity refused: no access (forbidden), over the subscriptions a connection may
   * hold (limit), or past the invocation budget (throttled).
   */
  subscriptionRefused?(reason: 'forbidden' | 'limit' | 'throttled'): void;
  /** A connection closed for invoking on past its budget. */
  connectionFlooding?(): void;
}

export interface HubOptions {
  /** Verifies a bearer access token; null means refuse. */
  authenticate(token: string): Promise<Principal | null>;
  /**
   * Whether what `authenticate` once answered still holds (the token not revoked, its login not
   * ended, the account neither deleted nor changed): asked at a subscription, by the principal, so
   * a connection need not keep its token's text.
   */
  stillValid(principal: Principal): Promise<boolean>;
  /** Whether this principal may receive events of this entity. */
  canSubscribe(principal: Principal, entityKey: string): Promise<boolean>;
  /** Set: fan-out goes through Redis pub/sub so several processes serve one site. */
  redisUrl?: string | undefined;
  /** Open connections one account may hold in one process (several devices, several tabs' fallback). */
  maxConnectionsPerAccount?: number;
  /** Keep-alive ping interval, 15 s unless a test shortens it. */
  keepAliveIntervalMs?: number;
  /** A client that sends nothing for this long is dropped (SignalR's server timeout, 30 s). */
  clientTimeoutMs?: number;
  /** How long a long poll with nothing to carry is held before it is answered empty, 90 s unless a test shortens it. */
  pollTimeoutMs?: number;
  /**
   * This process's name among the processes behind one proxy (NODE_ID): it prefixes every connection
   * token, so the proxy can route a connection's requests to the process that holds it.
   */
  nodeId?: string | undefined;
  /** Hears deliveries and the backplane's health, for /metrics. */
  observer?: HubObserver;
  /**
   * Writes down the subscriptions one connection was refused in a refusal window (REFUSAL_WINDOW_MS):
   * one call per connection and window at most, with their count and the first one's key (the
   * staff audit log). Refused subscriptions are never told one by one.
   */
  auditRefusals?(principal: Principal, refused: RefusedSubscriptions): Promise<void>;
}

export interface Hub {
  /** Mounts negotiate, the WebSocket upgrade and the long-polling routes under /hubs/portalaccountevents. */
  register(app: FastifyInstance): void;
  /** SendEvent(eventName, data, entityKey) to every connection, in any process, subscribed to entityKey. */
  publishToEntity(entityKey: string, eventName: string, data: unknown): Promise<void>;
  /** SendEvent to every connection, in any process, of one account (no subscription needed). */
  publishToAccount(accountId: number, eventName: string, data: unknown, entityKey: string): Promise<void>;
  /** Closes every connection, in any process, opened with this access token (used on revocation). */
  disconnectToken(tokenId: string): Promise<void>;
  /** Closes every connection of the account, in any process (deletion, password or role change). */
  disconnectAccount(accountId: number): Promise<void>;
  /**
   * Ends every staff subscription to the entity except `keepAccountId`'s, in any process: once a
   * counsellor accepts a chat, the colleagues who watched it in the queue hear no more of it.
   */
  unsubscribeOtherStaff(entityKey: string, keepAccountId: number): Promise<void>;
  /** Open connections in this process, all transports. */
  connectionCount(): number;
  /** Entity subscriptions held by this process's connections (one per connection and entity). */
  subscriptionCount(): number;
  /** Open connections in this process by transport. */
  connectionCountByTransport(): Record<TransportKind, number>;
  /** Resolves once every refusal report handed to auditRefusals so far has been written (or failed). */
  settled(): Promise<void>;
  close(): Promise<void>;
}
