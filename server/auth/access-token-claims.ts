import type { JWTPayload } from 'jose';
import { CLIENTS, type ClientId } from './clients.ts';
import type { Principal, Role } from './principal.ts';

/**
 * One frozen array per distinct list of roles or scopes: every principal of the same kind of login
 * shares it (a hub holds a principal per connection, thousands of them).
 */
const internedLists = new Map<string, readonly string[]>();
function interned<T extends string>(list: T[]): readonly T[] {
  const key = list.join(' ');
  let shared = internedLists.get(key);
  if (!shared) {
    // The lists come from signed tokens of this server: a handful of kinds, not one per token.
    if (internedLists.size >= 64) internedLists.clear();
    shared = Object.freeze([...list]);
    internedLists.set(key, shared);
  }
  return shared as readonly T[];
}

/**
 * What a signature-checked access token's claims say of who is asking, or null when they do not
 * hold for a token of this server: its client unknown, a role its client may not have, or an id
 * missing. Lifetime, issuer and audience are the verifier's (TokenService.verifyAccessToken).
 */
export function principalOfClaims(payload: JWTPayload): Principal | null {
  if (!payload.jti || !payload.sub || typeof payload.exp !== 'number') return null;
  const clientId = payload.client_id;
  if (typeof clientId !== 'string' || !Object.hasOwn(CLIENTS, clientId)) return null;
  const roles = (Array.isArray(payload.role) ? payload.role : []) as Role[];
  const allowed = CLIENTS[clientId as ClientId].allowedRoles as readonly string[];
  if (!roles.every((r) => allowed.includes(r))) return null;
  const sessionId = typeof payload.sid === 'string' ? payload.sid : undefined;
  return {
    accountId: Number(payload.sub),
    contactId: Number(payload.contact_id),
    roles: interned(roles),
    clientId: clientId as ClientId,
    tokenId: payload.jti,
    ...(sessionId ? { sessionId } : {}),
    tokenGeneration: Number(payload.gen ?? 0),
    expiresAt: payload.exp,
    scopes: interned(typeof payload.scope === 'string' ? payload.scope.split(' ') : []),
  };
}
