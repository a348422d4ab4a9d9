import type { HubConnection, Transport, TransportKind } from './connection.ts';
import type { Frame } from './protocol.ts';

/**
 * Key → connections, dropping empty groups so churn of short-lived keys does not leak. A group of one
 * (an access token's, most accounts') is held as the connection itself, without a Set.
 */
export class GroupIndex<K> {
  private readonly groups = new Map<K, HubConnection | Set<HubConnection>>();

  add(key: K, connection: HubConnection): void {
    const group = this.groups.get(key);
    if (group === undefined) this.groups.set(key, connection);
    else if (group instanceof Set) group.add(connection);
    else if (group !== connection) this.groups.set(key, new Set([group, connection]));
  }

  remove(key: K, connection: HubConnection): void {
    const group = this.groups.get(key);
    if (group === undefined) return;
    if (group instanceof Set) {
      group.delete(connection);
      if (group.size === 0) this.groups.delete(key);
    } else if (group === connection) {
      this.groups.delete(key);
    }
  }

  /** The same frame object goes to every member: serialized once, however large the group. Answers how many. */
  send(key: K, frame: Frame): number {
    const group = this.groups.get(key);
    if (group === undefined) return 0;
    if (!(group instanceof Set)) {
      group.send(frame);
      return 1;
    }
    for (const connection of group) connection.send(frame);
    return group.size;
  }

  size(key: K): number {
    const group = this.groups.get(key);
    return group === undefined ? 0 : group instanceof Set ? group.size : 1;
  }

  /** Memberships over every group (counted when asked: a scrape). */
  memberCount(): number {
    let count = 0;
    for (const group of this.groups.values()) count += group instanceof Set ? group.size : 1;
    return count;
  }

  /** A snapshot, because acting on members (closing them) changes the group. */
  members(key: K): HubConnection[] {
    const group = this.groups.get(key);
    return group === undefined ? [] : group instanceof Set ? [...group] : [group];
  }
}

/**
 * After a connection ends its token still answers a little while, so a long-polling client's last poll gets
 * the queued Close message or a 204 rather than a 404.
 */
const CLOSED_CONNECTION_GRACE_MS = 10_000;

/** All connections of this process, and the groups events are addressed to. */
export class ConnectionRegistry {
  readonly entities = new GroupIndex<string>();
  readonly accounts = new GroupIndex<number>();
  readonly tokens = new GroupIndex<string>();
  /** Every live connection of an account, negotiated or open: what the per-account limit counts. */
  readonly owners = new GroupIndex<number>();
  private readonly byToken = new Map<string, HubConnection>();
  private readonly live = new Set<HubConnection>();
  private readonly connected = new Set<HubConnection>();

  add(connection: HubConnection): void {
    this.byToken.set(connection.connectionToken, connection);
    this.live.add(connection);
    this.owners.add(connection.principal.accountId, connection);
    for (const tokenId of connection.tokenIds()) this.tokens.add(tokenId, connection);
  }

  liveCountOf(accountId: number): number {
    return this.owners.size(accountId);
  }

  find(connectionToken: string): HubConnection | undefined {
    return this.byToken.get(connectionToken);
  }

  attach(connection: HubConnection, transport: Transport): void {
    connection.attach(transport);
    if (!connection.closed) this.connected.add(connection);
  }

  /** A later request may carry a refreshed access token; remember it so its revocation reaches us too. */
  noteToken(connection: HubConnection, tokenId: string): void {
    if (connection.closed || !connection.addTokenId(tokenId)) return;
    this.tokens.add(tokenId, connection);
  }

  opened(connection: HubConnection): void {
    this.accounts.add(connection.principal.accountId, connection);
  }

  removed(connection: HubConnection): void {
    this.live.delete(connection);
    this.owners.remove(connection.principal.accountId, connection);
    this.connected.delete(connection);
    this.accounts.remove(connection.principal.accountId, connection);
    for (const key of connection.takeSubscriptions()) this.entities.remove(key, connection);
    for (const tokenId of connection.tokenIds()) this.tokens.remove(tokenId, connection);
    setTimeout(() => this.byToken.delete(connection.connectionToken), CLOSED_CONNECTION_GRACE_MS).unref();
  }

  /** Connections that have a transport attached and are not closed. */
  connectedCount(): number {
    return this.connected.size;
  }

  /** Connected connections by transport (counted when asked: a scrape, not every event). */
  connectedByTransport(): Record<TransportKind, number> {
    const counts: Record<TransportKind, number> = { WebSockets: 0, LongPolling: 0 };
    for (const connection of this.connected) {
      if (connection.transport) counts[connection.transport.kind] += 1;
    }
    return counts;
  }

  all(): HubConnection[] {
    return [...this.live];
  }

  /** Every live connection, without a copy; closing one while iterating is safe (a Set allows deletion). */
  liveConnections(): Iterable<HubConnection> {
    return this.live;
  }

  liveCount(): number {
    return this.live.size;
  }
}
