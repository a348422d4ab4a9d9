import { TOKEN_SCOPE } from '../../contract/config.ts';

/** The staff console's own public client (the child app's is `portal-web`). */
export const STAFF_CLIENT_ID = 'portal-staff';

export interface StaffTokens {
  accessToken: string;
  refreshToken: string | null;
  /** Epoch milliseconds. */
  expiresAt: number;
}

/** Why a token request failed: wrong credentials, too many attempts, or anything else. */
export type TokenFailure = 'invalid' | 'throttled' | 'other';

export class TokenRequestError extends Error {
  constructor(readonly failure: TokenFailure) {
    super(`token request failed: ${failure}`);
    this.name = 'TokenRequestError';
  }
}

interface TokenResponse {
  access_token: string;
  refresh_token?: string;
  expires_in: number;
}

async function tokenRequest(authUrl: string, form: Record<string, string>): Promise<StaffTokens> {
  let res: Response;
  try {
    res = await fetch(`${authUrl.replace(/\/$/, '')}/connect/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form),
    });
  } catch {
    throw new TokenRequestError('other');
  }
  if (res.status === 429) throw new TokenRequestError('throttled');
  const body = (await res.json().catch(() => ({}))) as Partial<TokenResponse> & {
    error?: string;
    error_description?: string;
  };
  if (!res.ok || !body.access_token) {
    const invalid =
      body.error_description === 'invalid_username_or_password' ||
      body.error_description === 'invalid_refresh_token';
    throw new TokenRequestError(invalid ? 'invalid' : 'other');
  }
  return {
    accessToken: body.access_token,
    refreshToken: body.refresh_token ?? null,
    expiresAt: Date.now() + (body.expires_in ?? 0) * 1000,
  };
}

export function passwordGrant(authUrl: string, portalId: string, username: string, password: string) {
  return tokenRequest(authUrl, {
    grant_type: 'password',
    client_id: STAFF_CLIENT_ID,
    scope: TOKEN_SCOPE,
    username,
    password,
    portalId,
  });
}

export function refreshGrant(authUrl: string, refreshToken: string) {
  return tokenRequest(authUrl, {
    grant_type: 'refresh_token',
    client_id: STAFF_CLIENT_ID,
    refresh_token: refreshToken,
  });
}

/** RFC 7009 revocation; a failure is ignored, since signing out locally must work regardless. */
export async function revokeToken(authUrl: string, token: string, hint: 'access_token' | 'refresh_token') {
  try {
    await fetch(`${authUrl.replace(/\/$/, '')}/connect/revocation`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, token_type_hint: hint, client_id: STAFF_CLIENT_ID }),
    });
  } catch (error) {
    console.warn('staff console: token revocation failed', error);
  }
}

/** The roles claim (`role`) of an access token; the signature is the server's business. */
export function rolesOf(accessToken: string): string[] {
  try {
    const payload = accessToken.split('.')[1] ?? '';
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const role = (JSON.parse(json) as { role?: unknown }).role;
    if (Array.isArray(role)) return role.filter((r): r is string => typeof r === 'string');
    return typeof role === 'string' ? [role] : [];
  } catch {
    return [];
  }
}
