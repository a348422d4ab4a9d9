import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify, decodeProtectedHeader } from 'jose';
import type { Db } from '../db/database.ts';
import { nowIso } from '../db/database.ts';
import type { KeyRing } from './keys.ts';
import { SIGNING_ALG } from './keys.ts';
import type { Principal, Role } from './principal.ts';
import { principalOfClaims } from './access-token-claims.ts';
import { isDatabaseUnavailable } from '../errors.ts';
import { exitHandleOf } from '../../contract/quick-exit.ts';

export const ACCESS_TOKEN_SECONDS = 15 * 60;
/** How far ahead of this server's clock a token's issue time may be (another process's clock). */
const CLOCK_SKEW_SECONDS = 60;
/** A refresh token unused for this long expires. */
export const REFRESH_IDLE_SECONDS = 14 * 24 * 3600;
/** A refresh-token family (one login) ends after this, however often it was rotated. */
export const REFRESH_ABSOLUTE_SECONDS = 30 * 24 * 3600;
export const AUDIENCE = 'portal';

export interface TokenSubject {
  accountId: number;
  contactId: number;
  name: string;
  roles: readonly Role[];
  /** Access tokens carry it as `gen`; raising it in the database refuses them all at once. */
  tokenGeneration: number;
}

export interface TokenOptions {
  /** 15 minutes unless a test shortens it. */
  accessTokenSeconds?: number;
  /** Whether a token's `iss` is this site: the configured origin, or a loopback origin. */
  acceptsIssuer(issuer: string): boolean;
}

export interface IssueRequest {
  issuer: string;
  clientId: string;
  scope: string;
  portalId: string | null;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
  refresh_token?: string;
  id_token?: string;
}

/** The login (refresh-token family) a token names, and the client it was issued to. */
export interface TokenLogin {
  familyId: string;
  clientId: string;
}

/** A login's refresh tokens: its id and end, and (for a refresh) the token being swapped. */
export interface RefreshFamily {
  id: string;
  expiresAt: string;
  parentId: number;
}

const digest = (token: string) => createHash('sha256').update(token).digest('base64url');
const addSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();

export class TokenService {
  readonly accessTokenSeconds: number;

  constructor(
    private readonly db: Db,
    private readonly keys: KeyRing,
    private readonly options: TokenOptions,
  ) {
    this.accessTokenSeconds = options.accessTokenSeconds ?? ACCESS_TOKEN_SECONDS;
  }

  /** A login's tokens (a refresh stores and signs in two steps, see `rotate`). */
  async issue(subject: TokenSubject, req: IssueRequest): Promise<TokenResponse> {
    const now = Math.floor(Date.now() / 1000);
    // The login's refresh-token family, which its access tokens name (`sid`) so that revoking it
    // stops them too; a login without refresh tokens has none.
    const family = { id: randomUUID() };
    const refresh = req.scope.split(' ').includes('offline_access')
      ? await this.storeRefreshToken(subject, req, now, family)
      : undefined;
    return this.sign(subject, req, now, refresh ? family : undefined, refresh);
  }

  /**
   * Stores a new refresh token: a login's first, or the successor in `family` of the token a refresh
   * swapped (in that refresh's transaction). `now` is the whole second the tokens are signed with.
   */
  async storeRefreshToken(
    subject: TokenSubject,
    req: IssueRequest,
    now: number,
    family?: Pick<RefreshFamily, 'id'> & Partial<RefreshFamily>,
    db: Db = this.db,
  ): Promise<string> {
    const refresh = randomBytes(32).toString('base64url');
    // From the same whole second as the id_token's auth_time: a later second here would make every
    // refreshed id_token's auth_time differ from the first by one.
    const familyExpires =
      family?.expiresAt ?? new Date((now + REFRESH_ABSOLUTE_SECONDS) * 1000).toISOString();
    const idle = addSeconds(REFRESH_IDLE_SECONDS);
    const exitDigest = digest(await exitHandleOf(refresh));
    await db
      .insertInto('refresh_tokens')
      .values({
        token_digest: digest(refresh),
        // Its quick-exit handle, kept like the token itself as a digest only: what the page may
        // leave on the device ends this login and nothing else (contract/quick-exit.ts).
        exit_digest: exitDigest,
        family_id: family?.id ?? randomUUID(),
        account_id: subject.accountId,
        client_id: req.clientId,
        scope: req.scope,
        portal_id: req.portalId,
        created_date: nowIso(),
        expires_at: idle < familyExpires ? idle : familyExpires,
        family_expires_at: familyExpires,
        token_generation: subject.tokenGeneration,
        parent_id: family?.parentId ?? null,
      })
      .execute();
    return refresh;
  }

  /** The signed access token (and id_token with `openid`), with `refresh` if one was stored. */
  async sign(
    subject: TokenSubject,
    req: IssueRequest,
    now: number,
    family?: Pick<RefreshFamily, 'id'> & Partial<Pick<RefreshFamily, 'expiresAt'>>,
    refresh?: string,
  ): Promise<TokenResponse> {
    const key = this.keys.current.signing;
    const access_token = await new SignJWT({
      client_id: req.clientId,
      scope: req.scope,
      role: subject.roles,
      contact_id: subject.contactId,
      gen: subject.tokenGeneration,
      ...(family ? { sid: family.id } : {}),
      ...(req.portalId ? { portal_id: req.portalId } : {}),
    })
      .setProtectedHeader({ alg: SIGNING_ALG, kid: key.kid, typ: 'at+jwt' })
      .setIssuer(req.issuer)
      .setAudience(AUDIENCE)
      .setSubject(String(subject.accountId))
      .setJti(randomUUID())
      .setIssuedAt(now)
      .setExpirationTime(now + this.accessTokenSeconds)
      .sign(key.privateKey);
    const response: TokenResponse = {
      access_token,
      token_type: 'Bearer',
      expires_in: this.accessTokenSeconds,
      scope: req.scope,
    };
    if (req.scope.split(' ').includes('openid')) {
      // auth_time is when the user logged in, not when this token was made: OIDC clients (oidc-client-ts)
      // refuse a refreshed id_token whose auth_time differs from the first. A family's login time is
      // its absolute expiry minus its lifetime.
      const authTime = family?.expiresAt
        ? Math.floor(Date.parse(family.expiresAt) / 1000) - REFRESH_ABSOLUTE_SECONDS
        : now;
      response.id_token = await new SignJWT({ name: subject.name, auth_time: authTime })
        .setProtectedHeader({ alg: SIGNING_ALG, kid: key.kid, typ: 'JWT' })
        .setIssuer(req.issuer)
        .setAudience(req.clientId)
        .setSubject(String(subject.accountId))
        .setIssuedAt(now)
        .setExpirationTime(now + this.accessTokenSeconds)
        .sign(key.privateKey);
    }
    if (refresh) response.refresh_token = refresh;
    return response;
  }

  /**
   * Consumes a refresh token; the caller stores its successor (`storeRefreshToken` with the
   * family). Each token is swapped once. A used token presented again either had its answer lost (the tab closed during
   * the refresh, the phone's line dropped) or leaked. Lost, the client never received the successor,
   * so that successor has never been presented: it is retired (marked used, so presenting it later
   * counts as reuse) and the token is swapped anew, as often as answers are lost. Otherwise - the
   * successor was used, or another retry got there first - it is reuse, and the whole family, the
   * one login, is revoked.
   *
   * Why the retry: without it a lost answer signs a child out and wipes the cached chats at the next
   * start (the worker refreshes first at every start, SPEC §4). What it costs: a stolen copy of a
   * token, used or current, is cut off at the rightful app's second refresh after the theft at the
   * latest, where it was the first. The first may itself be taken for a retry (of the token the thief
   * swapped) and the thief may retry again; then the app's next refresh presents a retired token,
   * which revokes the family. A thief who does not retry is out when its access token ends (15 min).
   * A token two swaps old is reuse as before.
   *
   * Run it in the transaction that stores the successor: a fault between the two (a cut database
   * connection) then leaves the token unused, and the client's retry is a plain refresh. Sign after
   * the commit: the signing then holds no connection, and an answer lost after it is a retry.
   */
  async rotate(refreshToken: string, clientId: string, db: Db, revoked: string[] = []) {
    const row = await db
      .selectFrom('refresh_tokens')
      .selectAll()
      // A family revoked while this token's successor was being issued would leave that successor
      // unrevoked (the revocation reached only the rows that existed): every revoked sibling refuses.
      .select((eb) =>
        eb
          .exists(
            eb
              .selectFrom('refresh_tokens as sibling')
              .select('sibling.id')
              .whereRef('sibling.family_id', '=', 'refresh_tokens.family_id')
              .where('sibling.revoked_date', 'is not', null),
          )
          .as('family_revoked'),
      )
      .where('token_digest', '=', digest(refreshToken))
      .executeTakeFirst();
    if (!row || row.client_id !== clientId) return null;
    if (row.revoked_date || row.family_revoked) {
      await this.revokeFamily(row.family_id, db);
      revoked.push(row.family_id);
      return null;
    }
    const now = nowIso();
    if (row.family_expires_at <= now || (!row.used_date && row.expires_at <= now)) return null;
    // Marking it used is conditional, so two concurrent uses cannot both succeed; a retry retires
    // the successor the same way, so two concurrent retries cannot both succeed either.
    const claimed = await (
      row.used_date
        ? db
            .updateTable('refresh_tokens')
            .set({ used_date: now })
            .where('parent_id', '=', row.id)
            .where('family_id', '=', row.family_id)
            .where('expires_at', '>', now)
        : db.updateTable('refresh_tokens').set({ used_date: now }).where('id', '=', row.id)
    )
      .where('used_date', 'is', null)
      .where('revoked_date', 'is', null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) {
      await this.revokeFamily(row.family_id, db);
      revoked.push(row.family_id);
      return null;
    }
    return row;
  }

  /**
   * Ends a login (logout, or a refresh token used twice): its refresh tokens, and the push
   * subscription it made (server/push/), so a device signed out, or a thief's, hears nothing more.
   */
  async revokeFamily(familyId: string, db: Db = this.db) {
    await db
      .updateTable('refresh_tokens')
      .set({ revoked_date: nowIso() })
      .where('family_id', '=', familyId)
      .where('revoked_date', 'is', null)
      .execute();
    await db.deleteFrom('push_subscriptions').where('login_key', '=', familyId).execute();
  }

  /** The login (refresh-token family) a refresh token belongs to, and the client it was issued to. */
  refreshTokenLogin(token: string): Promise<TokenLogin | null> {
    return this.loginWhere('token_digest', digest(token));
  }

  /**
   * The login a quick exit's handle ends (contract/quick-exit.ts), and its client. Looked up in a
   * column of its own: a handle is never taken for a refresh token, nor a token for a handle.
   */
  exitHandleLogin(handle: string): Promise<TokenLogin | null> {
    return this.loginWhere('exit_digest', digest(handle));
  }

  private async loginWhere(column: 'token_digest' | 'exit_digest', value: string) {
    const row = await this.db
      .selectFrom('refresh_tokens')
      .select(['family_id', 'client_id'])
      .where(column, '=', value)
      .executeTakeFirst();
    return row ? { familyId: row.family_id, clientId: row.client_id } : null;
  }

  /**
   * Every token of the account stops working at once, in every process: refresh tokens are revoked
   * and the account's token generation is raised, which refuses every access token issued before.
   * Every push subscription of the account goes with its logins.
   */
  async revokeAllForAccount(accountId: number) {
    await this.db
      .updateTable('accounts')
      .set((eb) => ({ token_generation: eb('token_generation', '+', 1) }))
      .where('id', '=', accountId)
      .execute();
    await this.db
      .updateTable('refresh_tokens')
      .set({ revoked_date: nowIso() })
      .where('account_id', '=', accountId)
      .where('revoked_date', 'is', null)
      .execute();
    await this.db.deleteFrom('push_subscriptions').where('account_id', '=', accountId).execute();
  }

  /**
   * Verifies signature, expiry, issuer, audience and client, then - in one query - that the account
   * still exists, that its token generation has not moved on, and that neither this token nor its
   * login (`sid`, the refresh-token family) was revoked.
   */
  async verifyAccessToken(token: string): Promise<Principal | null> {
    const principal = await this.signedPrincipal(token);
    return principal && (await this.stillValid(principal)) ? principal : null;
  }

  /**
   * The database half of verifyAccessToken, by the claims a verified token gave: the account still
   * there at the token's generation, neither the token nor its login revoked. The hub asks it again
   * at every subscription without keeping the token itself (server/hub/verified-tokens.ts).
   */
  async stillValid(principal: Principal): Promise<boolean> {
    if (principal.expiresAt * 1000 <= Date.now()) return false;
    try {
      const account = await this.db
        .selectFrom('accounts')
        .select(['token_generation', 'deleted_date'])
        .select((eb) =>
          eb
            .selectFrom('revoked_access_tokens')
            .select('token_id')
            .where('token_id', '=', principal.tokenId)
            .as('revoked'),
        )
        // Its login ended (logout, or a refresh token used twice): the thief's copy stops with it.
        .select((eb) =>
          eb
            .selectFrom('refresh_tokens')
            .select('family_id')
            .where('family_id', '=', principal.sessionId ?? '')
            .where('revoked_date', 'is not', null)
            .limit(1)
            .as('session_revoked'),
        )
        .where('id', '=', principal.accountId)
        .executeTakeFirst();
      if (!account || account.deleted_date || account.revoked || account.session_revoked) return false;
      return account.token_generation === principal.tokenGeneration;
    } catch (error) {
      // A database that cannot be asked (restarting) says nothing about the token: 503, not 401,
      // which would send the client to sign in again.
      if (isDatabaseUnavailable(error)) throw error;
      return false;
    }
  }

  /** The principal of a token whose signature, expiry, issuer, audience and client hold, else null. */
  private async signedPrincipal(token: string): Promise<Principal | null> {
    try {
      const { kid } = decodeProtectedHeader(token);
      const key = await this.keys.find(kid);
      if (!key) return null;
      const { payload } = await jwtVerify(token, key.publicKey, {
        algorithms: [SIGNING_ALG],
        audience: AUDIENCE,
        typ: 'at+jwt',
      });
      // No token lives longer than the server issues them for, whatever it says of itself: one
      // made with a key that leaked, or by a bug, for a year would otherwise be good for a year.
      if (typeof payload.exp !== 'number' || typeof payload.iat !== 'number') return null;
      if (payload.exp - payload.iat > this.accessTokenSeconds) return null;
      if (payload.iat > Math.floor(Date.now() / 1000) + CLOCK_SKEW_SECONDS) return null;
      if (typeof payload.iss !== 'string' || !this.options.acceptsIssuer(payload.iss)) return null;
      return principalOfClaims(payload);
    } catch {
      return null;
    }
  }

  async revokeAccessToken(principal: Principal) {
    await this.db
      .insertInto('revoked_access_tokens')
      .values({ token_id: principal.tokenId, expires_at: new Date(principal.expiresAt * 1000).toISOString() })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}
