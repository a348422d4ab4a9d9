import type { HubConnection, Transport } from './connection.ts';
import type { Frame } from './protocol.ts';

/** Key → connections, dropping empty sets so churn of short-lived keys does not leak. */
export class GroupIndex<K> {
  private readonly groups = new Map<K, Set<HubConnection>>();

  add(key: K, connection: HubConnection): void {
    let group = this.groups.get(key);
    if (!group) {
      group = new Set();
      this.groups.set(key, group);
    }
    group.add(connection);
  }

  remove(key: K, connection: HubConnection): void {
    const group = this.groups.get(key);
    if (!group) return;
    group.delete(connection);
    if (group.size === 0) this.groups.delete(key);
  }

  /** The same frame object goes to every member: serialized once, however large the group. */
  send(key: K, frame: Frame): void {
    const group = this.groups.get(key);
    if (!group) return;
    for (const connection of group) connection.send(frame);
  }

  size(key: K): number {
    return this.groups.get(key)?.size ?? 0;
  }

  /** A snapshot, because acting on members (closing them) changes the group. */
  members(key: K): HubConnection[] {
    return [...(this.groups.get(key) ?? [])];
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
    for (const tokenId of connection.tokenIds) this.tokens.add(tokenId, connection);
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
    if (connection.closed || connection.tokenIds.has(tokenId)) return;
    connection.tokenIds.add(tokenId);
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
    for (const key of connection.subscriptions) this.entities.remove(key, connection);
    connection.subscriptions.clear();
    for (const tokenId of connection.tokenIds) this.tokens.remove(tokenId, connection);
    setTimeout(() => this.byToken.delete(connection.connectionToken), CLOSED_CONNECTION_GRACE_MS).unref();
  }

  /** Connections that have a transport attached and are not closed. */
  connectedCount(): number {
    return this.connected.size;
  }

  all(): HubConnection[] {
    return [...this.live];
  }
}
