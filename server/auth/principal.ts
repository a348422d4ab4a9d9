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
}

export const isStaff = (p: Principal): boolean =>
  p.roles.includes('counsellor') || p.roles.includes('group_leader');
