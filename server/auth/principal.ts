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
  /** Expiry of the access token, epoch seconds. */
  expiresAt: number;
  /** The scopes the token was granted; the API and the hub need 'portal'. */
  scopes: readonly string[];
}

/** The scope every {api} call and the hub require (SPEC §9 scope 'openid profile portal offline_access'). */
export const API_SCOPE = 'portal';

export const isStaff = (p: Principal): boolean => p.clientId === 'portal-staff';
