import { TokenBucket } from './token-bucket.ts';
import { randomBytes } from 'node:crypto';
import { revocationKeys, type Principal } from '../auth/principal.ts';
import {
  HANDSHAKE_OK_FRAME,
  PING_FRAME,
  closeFrame,
  handshakeErrorFrame,
  parseClientMessage,
  parseHandshake,
  splitRecords,
} from './protocol.ts';
import type { ClientMessage, Frame } from './protocol.ts';

export type TransportKind = 'WebSockets' | 'LongPolling';

/** Keeps one connection from pinning unbounded memory through subscriptions. */
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 1000;
/**
 * Invocations per connection (docs/decisions.md, "A budget of hub invocations"): a burst in which a
 * client that holds the most subscriptions a connection may have subscribes all of them again at
 * once after a reconnect, and more; then 20 a second. Each subscription costs database reads (and,
 * for staff, an audit row); past the budget the answer is an error at once, and nothing is read.
 * Per process, and an account holds at most HUB_MAX_CONNECTIONS_PER_ACCOUNT connections per process.
 */
export const INVOCATION_BURST = MAX_SUBSCRIPTIONS_PER_CONNECTION + 200;
export const INVOCATIONS_PER_SECOND = 20;
/**
 * Refused past its budget this often within a refusal window, a connection is no client of ours
 * (one that met the budget would stop at its first few errors): it is closed.
 */
export const THROTTLED_BEFORE_CLOSE = 100;
/** Refused subscriptions are told (an audit row for staff) at most once per connection in this span. */
export const REFUSAL_WINDOW_MS = 60_000;

/** The subscriptions a connection was refused in one window: how many, and the first one's key. */
export interface RefusedSubscriptions {
  count: number;
  firstKey: string;
}

/** What a connection was refused since `since` (made on its first refusal: most never have one). */
interface Refusals {
  since: number;
  /** Invocations refused past the budget. */
  throttled: number;
  /** SubscribeToEntity refused, for whatever reason. */
  subscriptions: number;
  firstKey: string;
}

/** What a connection needs from the wire it is bound to. */

export interface Transport {
  readonly kind: TransportKind;
  /** Frames are waiting in the connection's queue: take them now (WebSocket) or at the next poll. */
  notify(): void;
  /** The connection is over: hand over what is still queued if the wire allows, then end it. */
  close(): void;
  /**
   * The client is waiting on this transport right now (a held long poll): it is alive though it
   * sends nothing, as the official client sends no pings over long polling.
   */
  clientWaiting?(): boolean;
}

export interface ConnectionEvents {
  /** Handshake accepted: the connection may now receive events. */
  onOpen(connection: HubConnection): void;
  onMessage(connection: HubConnection, message: ClientMessage): void;
  onClose(connection: HubConnection): void;
  /** Subscriptions refused in a window that is over (or in the last one, at the close). */
  onRefusals?(connection: HubConnection, refused: RefusedSubscriptions): void;
}

export interface ConnectionTiming {
  keepAliveIntervalMs: number;
  clientTimeoutMs: number;
}

/**
 * A slow reader must not grow server memory without bound; ASP.NET closes such connections too
 * (its pipe pause threshold), and the client reconnects and refetches.
 */
const MAX_QUEUED_BYTES = 1024 * 1024;
/** An unterminated record longer than this is not a client speaking the protocol. */
const MAX_PARTIAL_RECORD_CHARS = 64 * 1024;

/** base64url keeps ids safe to splice into a query string unencoded, which the client does. */
export const randomId = (bytes: number): string => randomBytes(bytes).toString('base64url');

/**
 * A string of our own: a token cut out of a longer text (the upgrade URL, an Authorization header) may
 * share that text's memory and keep all of it alive for as long as the connection lives.
 */
const ownCopy = (text: string): string => Buffer.from(text, 'utf8').toString('utf8');

/**
 * One logical SignalR connection, independent of the transport that carries it. It owns no timer: the
 * hub's one heartbeat calls `heartbeat` for every connection (pings, client timeout, token expiry), and
 * what most connections never use (a second token, subscriptions, queued invocations) is made on first
 * use, so an idle connection stays small.
 */
export class HubConnection {
  readonly connectionId = randomId(16);
  /**
   * The secret that addresses this connection in later requests (`?id=`); never shown to other
   * clients. Behind a proxy it starts with the process's node id and a dot (`n2.…`), by which the
   * proxy sends every later request of the connection to the process that holds it (deploy/nginx.conf).
   */
  readonly connectionToken: string;
  transport: Transport | null = null;
  closed = false;

  private handshakeDone = false;
  private queue: Frame[] = [];
  private queuedBytes = 0;
  private inbound = '';
  private work: Promise<void> | null = null;
  /** Access tokens used after the first (the principal's), so revoking any of them ends the connection. */
  private laterTokenIds: Set<string> | null = null;
  private entityKeys: Set<string> | null = null;
  /** Epoch ms of the last message from the client (negotiate counts), for the client timeout. */
  private lastReceivedAt = Date.now();
  /** Invocations this connection may still make (see INVOCATION_BURST). */
  readonly invocations = new TokenBucket(INVOCATION_BURST, INVOCATIONS_PER_SECOND);
  private refusals: Refusals | null = null;
  /** Epoch ms the next keep-alive ping is due, once the handshake is done. */
  private nextPingAt = 0;
  /** When the newest access token seen on this connection ends (epoch ms). */
  private expiresAtMs = 0;
  /**
   * The newest access token's principal, so an invocation can check by its claims that the token is
   * still good (not revoked). Not the token itself: some 600 characters a connection, for its life.
   */
  private latest: Principal;

  constructor(
    readonly principal: Principal,
    private readonly timing: ConnectionTiming,
    private readonly events: ConnectionEvents,
    nodeId?: string,
  ) {
    this.connectionToken = nodeId ? `${nodeId}.${randomId(32)}` : randomId(32);
    // The client timeout runs from negotiate, so a connection whose transport never arrives, or never shakes hands, expires too.
    this.latest = principal;
    this.usePrincipal(principal);
  }

  get isOpen(): boolean {
    return this.handshakeDone && !this.closed;
  }

  /** The principal of the newest access token seen on this connection. */
  get currentPrincipal(): Principal {
    return this.latest;
  }

  get expired(): boolean {
    return Date.now() >= this.expiresAtMs;
  }

  /**
   * A connection lives as long as its newest access token: at expiry it is closed with
   * allowReconnect, and the client comes back with a fresh token (a long-polling client renews it
   * with every request; a WebSocket cannot, so it reconnects).
   */
  usePrincipal(principal: Principal): void {
    const expiresAtMs = principal.expiresAt * 1000;
    if (this.closed || expiresAtMs <= this.expiresAtMs) return;
    this.expiresAtMs = expiresAtMs;
    this.latest = principal;
  }

  /** Every access token id used on this connection, and their logins' revocation keys. */
  tokenIds(): string[] {
    return [...revocationKeys(this.principal), ...(this.laterTokenIds ?? [])];
  }

  /** Remembers a further access token's id; false if it was known already. */
  addTokenId(tokenId: string): boolean {
    if (revocationKeys(this.principal).includes(tokenId) || this.laterTokenIds?.has(tokenId)) return false;
    (this.laterTokenIds ??= new Set()).add(tokenId);
    return true;
  }

  isSubscribedTo(entityKey: string): boolean {
    return this.entityKeys?.has(entityKey) ?? false;
  }

  get subscriptionCount(): number {
    return this.entityKeys?.size ?? 0;
  }

  subscribe(entityKey: string): void {
    (this.entityKeys ??= new Set()).add(entityKey);
  }

  unsubscribe(entityKey: string): void {
    this.entityKeys?.delete(entityKey);
  }

  /** The entity keys subscribed to, which are forgotten: for the registry when the connection ends. */
  takeSubscriptions(): Iterable<string> {
    const keys = this.entityKeys ?? [];
    this.entityKeys = null;
    return keys;
  }

  /**
   * An invocation refused past the budget; true when the connection has now been refused so often
   * in the window (THROTTLED_BEFORE_CLOSE) that it is to be closed.
   */
  noteThrottled(now = Date.now()): boolean {
    return ++this.refusalWindow(now).throttled > THROTTLED_BEFORE_CLOSE;
  }

  /** A SubscribeToEntity refused (no access, over the limit, past the budget): counted, not logged. */
  noteRefusedSubscription(entityKey: string, now = Date.now()): void {
    const window = this.refusalWindow(now);
    if (window.subscriptions++ === 0) window.firstKey = ownCopy(entityKey);
  }

  private refusalWindow(now: number): Refusals {
    if (this.refusals && now - this.refusals.since >= REFUSAL_WINDOW_MS) this.reportRefusals();
    return (this.refusals ??= { since: now, throttled: 0, subscriptions: 0, firstKey: '' });
  }

  /** Tells the hub what the window's refused subscriptions came to, once, and starts afresh. */
  private reportRefusals(): void {
    const window = this.refusals;
    this.refusals = null;
    if (window && window.subscriptions > 0)
      this.events.onRefusals?.(this, { count: window.subscriptions, firstKey: window.firstKey });
  }

  /**
   * The hub's heartbeat, for every live connection: ends it at token expiry or once the client has
   * been silent for the client timeout, pings it every keep-alive interval after the handshake, and
   * reports a refusal window that is over.
   */
  heartbeat(now: number): void {
    if (this.closed) return;
    if (this.refusals && now - this.refusals.since >= REFUSAL_WINDOW_MS) this.reportRefusals();
    if (now >= this.expiresAtMs) {
      this.close({ error: 'The access token expired.', allowReconnect: true });
      return;
    }
    if (this.transport?.clientWaiting?.()) this.lastReceivedAt = now;
    if (now - this.lastReceivedAt >= this.timing.clientTimeoutMs) {
      this.close({ error: 'Client timeout elapsed without a message.' });
      return;
    }
    if (this.handshakeDone && now >= this.nextPingAt) {
      this.nextPingAt = now + this.timing.keepAliveIntervalMs;
      this.send(PING_FRAME);
    }
  }

  attach(transport: Transport): void {
    this.transport = transport;
  }

  /** A request of the client's on this connection (a long poll): it is alive. */
  noteAlive(): void {
    this.lastReceivedAt = Date.now();
  }

  /** Text from the client: one or more records, possibly the handshake first. */
  receive(text: string): void {
    if (this.closed) return;
    this.lastReceivedAt = Date.now();
    const { records, rest } = splitRecords(this.inbound + text);
    this.inbound = rest;
    if (rest.length > MAX_PARTIAL_RECORD_CHARS) {
      this.close({ error: 'Message too large.' });
      return;
    }
    for (const record of records) {
      if (this.closed) return;
      if (!this.handshakeDone) {
        this.handshake(record);
        continue;
      }
      const message = parseClientMessage(record);
      if (!message) {
        this.close({ error: 'Invalid message.' });
        return;
      }
      this.events.onMessage(this, message);
    }
  }

  /** Queues a frame for the client; frames before the handshake reply would corrupt the stream, so they are dropped. */
  send(frame: Frame): void {
    if (!this.isOpen) return;
    this.enqueue(frame);
  }

  /** Runs invocations one after another, as ASP.NET does by default, so subscribe/unsubscribe keep their order. */
  serially(task: () => Promise<void>): void {
    const work: Promise<void> = (this.work ?? Promise.resolve())
      .then(task)
      .catch((error: unknown) => {
        console.error('hub: invocation failed', error);
      })
      .then(() => {
        // Nothing left to wait for: an idle connection keeps no settled promise.
        if (this.work === work) this.work = null;
      });
    this.work = work;
  }

  /** Everything queued, as one buffer (the shared frame itself when only one is waiting), or null. */
  take(): Buffer | null {
    if (this.queue.length === 0) return null;
    const data = this.queue.length === 1 ? this.queue[0]! : Buffer.concat(this.queue, this.queuedBytes);
    this.queue = [];
    this.queuedBytes = 0;
    return data;
  }

  /**
   * Ends the connection once. `frame: false` skips the Close message (the client already went away or
   * asked to stop); otherwise a Close message carrying the error/allowReconnect goes out first.
   */
  close(options: { error?: string; allowReconnect?: boolean; frame?: boolean } = {}): void {
    if (this.closed) return;
    if (options.frame !== false && this.handshakeDone) {
      this.enqueue(closeFrame({ error: options.error, allowReconnect: options.allowReconnect }));
      // A full queue makes enqueue close the connection itself.
      if (this.closed) return;
    }
    this.closed = true;
    this.transport?.close();
    this.reportRefusals();
    this.events.onClose(this);
  }

  private handshake(record: string): void {
    const result = parseHandshake(record);
    if (!result.ok) {
      this.enqueue(handshakeErrorFrame(result.error));
      this.close({ frame: false });
      return;
    }
    this.enqueue(HANDSHAKE_OK_FRAME);
    this.handshakeDone = true;
    this.nextPingAt = Date.now() + this.timing.keepAliveIntervalMs;
    this.events.onOpen(this);
  }

  private enqueue(frame: Frame): void {
    if (this.queuedBytes + frame.length > MAX_QUEUED_BYTES) {
      // What is queued is lost either way; an emptied queue still has room to tell the client why.
      this.queue = [];
      this.queuedBytes = 0;
      this.close({ error: 'The client is not reading its messages.', allowReconnect: true });
      return;
    }
    this.queue.push(frame);
    this.queuedBytes += frame.length;
    this.transport?.notify();
  }
}
