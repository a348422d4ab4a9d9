import { createHash } from 'node:crypto';
import { e2eDatabaseUrl } from '../../playwright.config.ts';
import { openDatabase } from '../../server/db/database.ts';

/** One refresh token of a child as the Barn server keeps it: its digest, never the token. */
export interface StoredRefreshToken {
  digest: string;
  familyId: string;
  used: boolean;
  revoked: boolean;
  expiresAt: string;
}

/** The digest the server keeps of a refresh token (server/auth/tokens.ts). */
export function refreshTokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/**
 * Every refresh token of the child the Barn server holds, read from its SQLite file: what the server
 * answers a token request with, not what it says in an answer.
 */
export async function refreshTokensOf(username: string): Promise<StoredRefreshToken[]> {
  const { db, close } = openDatabase(e2eDatabaseUrl('barn'));
  try {
    const rows = await db
      .selectFrom('refresh_tokens')
      .innerJoin('accounts', 'accounts.id', 'refresh_tokens.account_id')
      .select([
        'refresh_tokens.token_digest',
        'refresh_tokens.family_id',
        'refresh_tokens.used_date',
        'refresh_tokens.revoked_date',
        'refresh_tokens.expires_at',
      ])
      .where('accounts.username', '=', username)
      .execute();
    return rows.map((row) => ({
      digest: row.token_digest,
      familyId: row.family_id,
      used: row.used_date !== null,
      revoked: row.revoked_date !== null,
      expiresAt: row.expires_at,
    }));
  } finally {
    await close();
  }
}

/**
 * The ones that still keep a login alive: not revoked and not expired. A used one counts too: the
 * server swaps a used token again while its successor has never been presented (a lost answer's
 * retry, server/auth/tokens.ts `rotate`), so it is as good as the current one to whoever holds it.
 */
export function liveRefreshTokens(tokens: readonly StoredRefreshToken[]): StoredRefreshToken[] {
  const now = new Date().toISOString();
  return tokens.filter((token) => !token.revoked && token.expiresAt > now);
}
