import { revocationKeys, type Principal } from '../auth/principal.ts';
import type { HubConnection } from './connection.ts';
import type { ConnectionRegistry } from './registry.ts';

/** What the transports and negotiate share with the hub. */
export interface HubContext {
  readonly registry: ConnectionRegistry;
  /** Never throws: an authenticator failure counts as a refused token. */
  authenticate(token: string): Promise<Principal | null>;
  /**
   * The same, but answered from this process's verification of the token within the last few
   * seconds when there is one (server/hub/verified-tokens.ts): for the steps of a client coming
   * back right after its negotiate (the WebSocket upgrade, its subscriptions).
   */
  authenticateRecent(token: string): Promise<Principal | null>;
  /** A new connection, or a status to refuse it with (429: the account has too many open). */
  createConnection(principal: Principal): HubConnection | 429;
  isClosing(): boolean;
  /** How long a long poll with nothing to carry is held (long-polling-transport.ts). */
  readonly pollTimeoutMs: number;
}

export function bearerToken(authorization: string | undefined): string | null {
  if (!authorization) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  return match?.[1] ?? null;
}

export type AccessResult =
  { ok: true; connection: HubConnection; principal: Principal } | { ok: false; status: 401 | 403 | 404 };

/**
 * Every request that addresses an existing connection proves again who it is, so a revoked or expired token
 * stops a long-polling client at its next request, and a leaked connection token alone is worth nothing.
 */
export async function accessConnection(
  context: HubContext,
  token: string | null,
  connectionToken: string | null,
  authenticate: (token: string) => Promise<Principal | null> = context.authenticate,
): Promise<AccessResult> {
  const principal = token ? await authenticate(token) : null;
  if (!principal) return { ok: false, status: 401 };
  const connection = connectionToken ? context.registry.find(connectionToken) : undefined;
  if (!connection) return { ok: false, status: 404 };
  // Same account, as ASP.NET insists on the same user identity for every request of a connection.
  if (connection.principal.accountId !== principal.accountId) return { ok: false, status: 403 };
  for (const key of revocationKeys(principal)) context.registry.noteToken(connection, key);
  connection.usePrincipal(principal);
  return { ok: true, connection, principal };
}

export const queryString = (query: unknown, name: string): string | null => {
  if (typeof query !== 'object' || query === null) return null;
  const value = (query as Record<string, unknown>)[name];
  return typeof value === 'string' && value.length > 0 ? value : null;
};
