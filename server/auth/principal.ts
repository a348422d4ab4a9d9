/** Who is asking: derived from a verified access token, never from the request body. */
export type Role = 'child' | 'participant' | 'counsellor' | 'group_leader';

export interface Principal {
  accountId: number;
  contactId: number;
  roles: readonly Role[];
  /** The access token's `jti`, so revocation can find the connections that used it. */
  tokenId: string;
  /** Expiry of the access token, epoch seconds. */
  expiresAt: number;
  /** The scopes the token was granted; the API and the hub need 'portal'. */
  scopes: readonly string[];
}

/** The scope every {api} call and the hub require (SPEC §9 scope 'openid profile portal offline_access'). */
export const API_SCOPE = 'portal';

export const isStaff = (p: Principal): boolean =>
  p.roles.includes('counsellor') || p.roles.includes('group_leader');
