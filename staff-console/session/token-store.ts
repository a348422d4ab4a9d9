import type { StaffTokens } from './token-client.ts';

/**
 * Tokens live in memory and in sessionStorage: a reload keeps the staff member signed in, closing the
 * tab ends it, and nothing outlives the browser session on a shared desktop (unlike localStorage).
 */
const KEY = 'staff-console.tokens';

export function readStoredTokens(): StaffTokens | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    if (!raw) return null;
    const t = JSON.parse(raw) as Partial<StaffTokens>;
    if (typeof t.accessToken !== 'string' || typeof t.expiresAt !== 'number') return null;
    return {
      accessToken: t.accessToken,
      refreshToken: typeof t.refreshToken === 'string' ? t.refreshToken : null,
      expiresAt: t.expiresAt,
    };
  } catch {
    return null;
  }
}

export function storeTokens(tokens: StaffTokens | null) {
  try {
    if (tokens) sessionStorage.setItem(KEY, JSON.stringify(tokens));
    else sessionStorage.removeItem(KEY);
  } catch {
    // Storage may be disabled; the session then lasts as long as the page.
  }
}
