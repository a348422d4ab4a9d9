import type { ClientId } from './clients.ts';

export type Role = 'child' | 'participant' | 'counsellor' | 'group_leader' | 'admin';

/** Who is asking: derived from a verified access token, never from the request body. */
export interface Principal {
  accountId: number;
  contactId: number;
  roles: readonly Role[];
  /** The client the token was issued to: the child app's API needs portal-web, the staff API portal-staff. */
  clientId: ClientId;
  /** The access token's `jti`, so revocation can find the connections that used it. */
  tokenId: string;
  /**
   * The login the token belongs to (its `sid`: the refresh-token family), when it has one: a
   * revoked family (logout, a refresh token used twice) refuses its access tokens at once.
   */
  sessionId?: string;
  /**
   * The account's token generation the token was issued at (its `gen`): raised on a password or role
   * change, it refuses every token issued before.
   */
  tokenGeneration: number;
  /** Expiry of the access token, epoch seconds. */
  expiresAt: number;
  /** The scopes the token was granted; the API and the hub need 'portal'. */
  scopes: readonly string[];
}

/** The scope every {api} call and the hub require (SPEC §9 scope 'openid profile portal offline_access'). */
export const API_SCOPE = 'portal';

export const isStaff = (p: Principal): boolean => p.clientId === 'portal-staff';

/** A login's key among the hub's revocation keys (beside the access tokens' own ids). */
export const sessionRevocationKey = (sessionId: string) => `session:${sessionId}`;

/** What a revocation may name a token by: its own id, and its login's. */
export function revocationKeys(principal: Pick<Principal, 'tokenId' | 'sessionId'>): string[] {
  return principal.sessionId
    ? [principal.tokenId, sessionRevocationKey(principal.sessionId)]
    : [principal.tokenId];
}
