import { StaffApiError } from '../api/staff-api.ts';
import { API_ERROR_TEXTS } from '../api/texts.ts';
import { refreshGrant, TokenRequestError, type StaffTokens } from './token-client.ts';
import { storeTokens } from './token-store.ts';

/** Refresh this long before expiry, so a token never expires on its way to the server. */
const REFRESH_MARGIN_MS = 60_000;

/**
 * Holds the signed-in staff member's tokens and hands out a valid access token, refreshing at most
 * once at a time (refresh tokens rotate: two parallel refreshes would revoke the whole login).
 */
export class TokenKeeper {
  private refreshing: Promise<string> | null = null;

  constructor(
    private tokens: StaffTokens,
    private readonly authUrl: string,
    private readonly onExpired: () => void,
  ) {
    storeTokens(tokens);
  }

  get current(): StaffTokens {
    return this.tokens;
  }

  async getAccessToken(forceRefresh = false): Promise<string> {
    if (!forceRefresh && this.tokens.expiresAt - Date.now() > REFRESH_MARGIN_MS) {
      return this.tokens.accessToken;
    }
    this.refreshing ??= this.refresh().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async refresh(): Promise<string> {
    const refreshToken = this.tokens.refreshToken;
    if (!refreshToken) return this.expire();
    try {
      this.tokens = await refreshGrant(this.authUrl, refreshToken);
      storeTokens(this.tokens);
      return this.tokens.accessToken;
    } catch (error) {
      if (error instanceof TokenRequestError && error.failure === 'invalid') return this.expire();
      // The network or the server failed, not the login: keep the session and let the caller retry.
      throw new StaffApiError(0, API_ERROR_TEXTS.network, 'network');
    }
  }

  private expire(): never {
    storeTokens(null);
    this.onExpired();
    throw new StaffApiError(401, API_ERROR_TEXTS.unauthorized, 'unauthorized');
  }
}
