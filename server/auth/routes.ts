import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import { siteOrigin, type AppContext, type TypeBoxProvider } from '../context.ts';
import { ApiError, OAuthError } from '../errors.ts';
import { accountIdOf, checkPassword, checkPersonalCode, loadSubject } from './accounts.ts';
import { ALLOWED_SCOPES, CLIENTS, isClientId, type ClientId } from './clients.ts';
import type { Counter, LoginPolicy } from './login-throttle.ts';
import { DeviceTokens } from './device-tokens.ts';
import { normalizePersonalCode } from './passwords.ts';
import { sessionRevocationKey } from './principal.ts';
import type { TokenLogin } from './tokens.ts';
import { SIGNING_ALG } from './keys.ts';
import { isDemoCredential } from '../db/seed.ts';
import { DEMO_LOGIN_FORWARDED, demoLoginRefused } from './demo-login-guard.ts';
import { addressKey } from '../security/client-address.ts';
import { LOGIN_NAME_MAX_LENGTH } from '../../contract/limits.ts';
import { ConnectForm, DEVICE_TOKEN_CLIENT, DEVICE_TOKEN_FIELD } from '../../contract/schemas/connect.ts';
import type { LoginRecordKind } from '../../contract/schemas/login-record.ts';
import { EXIT_TOKEN_HINT } from '../../contract/quick-exit.ts';

type Form = ConnectForm;

/** The error_description of a token or revocation request posted from another site's page. */
export const FOREIGN_ORIGIN = 'foreign_origin';

/** Longer usernames and passwords are refused before anything is counted, stored or hashed. */
const MAX_LOGIN_NAME_LENGTH = LOGIN_NAME_MAX_LENGTH;

/**
 * The OpenID Connect / OAuth 2.0 endpoints of SPEC §7 Authentication. Form bodies are parsed only
 * here: the API takes JSON, so an HTML form posted from another site never reaches it.
 */
export async function registerAuthRoutes(app: FastifyInstance, ctx: AppContext) {
  await app.register(async (scope) => {
    await scope.register(formbody);
    registerConnectRoutes(scope, ctx);
  });
}

function registerConnectRoutes(scope: FastifyInstance, ctx: AppContext) {
  const app = scope.withTypeProvider<TypeBoxProvider>();
  // A form posted by another site's page needs no CORS preflight, and the child's own browser would
  // send it from the child's own address: counted, it could lock the child out of their own device.
  // So a post whose Origin is another site is refused before its body is read or anything counted;
  // native clients and tools send no Origin.
  app.addHook('onRequest', async (req, reply) => {
    const origin = req.headers.origin;
    if (req.method !== 'POST' || origin === undefined || origin === siteOrigin(ctx.config, req)) return;
    return reply
      .code(403)
      .header('Cache-Control', 'no-store')
      .send({ error: 'invalid_request', error_description: FOREIGN_ORIGIN });
  });
  const oauthErrors = (reply: FastifyReply, e: unknown) => {
    if (e instanceof OAuthError) {
      return reply.code(e.status).send({ error: e.error, error_description: e.description });
    }
    throw e;
  };
  // A form that does not validate is an OAuth invalid_request, not the API's error body.
  app.setErrorHandler((error, _req, reply) => {
    const status =
      error instanceof ApiError ? error.status : ((error as { statusCode?: number }).statusCode ?? 500);
    if (status >= 400 && status < 500) {
      return reply.code(status === 413 || status === 415 ? status : 400).send({
        error: 'invalid_request',
        error_description: 'malformed request',
      });
    }
    throw error;
  });

  app.get('/.well-known/openid-configuration', async (req) => {
    const issuer = siteOrigin(ctx.config, req);
    return {
      issuer,
      jwks_uri: `${issuer}/.well-known/openid-configuration/jwks`,
      token_endpoint: `${issuer}/connect/token`,
      revocation_endpoint: `${issuer}/connect/revocation`,
      userinfo_endpoint: `${issuer}/connect/userinfo`,
      grant_types_supported: ['password', 'refresh_token'],
      response_types_supported: ['token'],
      scopes_supported: ALLOWED_SCOPES,
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: [SIGNING_ALG],
      token_endpoint_auth_methods_supported: ['none'],
      revocation_endpoint_auth_methods_supported: ['none'],
      claims_supported: ['sub', 'name', 'role'],
    };
  });

  app.get('/.well-known/openid-configuration/jwks', async () => ({
    keys: ctx.keys.current.all.map((k) => k.publicJwk),
  }));

  app.get('/connect/userinfo', async (req, reply) => {
    const principal = await principalFromHeader(ctx, req);
    if (!principal) return reply.code(401).header('WWW-Authenticate', 'Bearer error="invalid_token"').send();
    const subject = await loadSubject(ctx.db, principal.accountId);
    if (!subject) return reply.code(401).send();
    return { sub: String(subject.accountId), name: subject.name, role: subject.roles };
  });

  app.post('/connect/token', { schema: { body: ConnectForm } }, async (req, reply) => {
    reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
    try {
      const form: Form = req.body ?? {};
      const clientId = requireClient(form.client_id);
      if (form.grant_type === 'password') return await passwordGrant(ctx, req, reply, form, clientId);
      if (form.grant_type === 'refresh_token') return await refreshGrant(ctx, req, form, clientId);
      throw new OAuthError('unsupported_grant_type', 'grant_type must be password or refresh_token');
    } catch (e) {
      return oauthErrors(reply, e);
    }
  });

  // RFC 7009: answer 200 for any token, known or not: access, refresh or a quick exit's handle; a
  // client (public, so named by client_id) revokes only what was issued to it.
  app.post('/connect/revocation', { schema: { body: ConnectForm } }, async (req, reply) => {
    // Signing out: the browser drops its HTTP cache for the site too (whatever a misconfigured proxy
    // or an older version let in). Only "cache": the service worker's app shell and the assistant's
    // cookie (SPEC §4) stay, so the signed-out app still opens offline.
    reply.header('Clear-Site-Data', '"cache"');
    const form: Form = req.body ?? {};
    let clientId: ClientId;
    try {
      clientId = requireClient(form.client_id);
    } catch (e) {
      return oauthErrors(reply, e);
    }
    const token = form.token ?? '';
    if (!token)
      return reply.code(400).send({ error: 'invalid_request', error_description: 'token is required' });
    if ((await revokeToken(ctx, token, form.token_type_hint, clientId)) === 'another_client') {
      return reply
        .code(400)
        .send({ error: 'unauthorized_client', error_description: 'token was issued to another client' });
    }
    return reply.code(200).send();
  });
}

/** What a revocation found of one kind of token: none, this client's (revoked now), or another's. */
type Revocation = 'not_found' | 'revoked' | 'another_client';

/** Revokes `token` if it is of one kind (an access token, say); the client must be its own. */
type RevokeAs = (ctx: AppContext, token: string, clientId: ClientId) => Promise<Revocation>;

/**
 * Revokes `token` as whichever kind it is. Each kind is recognised only by its own check (a valid
 * signature, a refresh token's digest, a handle's digest in a column of its own), so a hint never
 * makes one kind pass for another: an access token sent as a handle still ends only itself, and a
 * handle is never a refresh token. The hint says only where to look first; RFC 7009 §2.1 has a
 * token not found there searched for among the other kinds.
 */
async function revokeToken(
  ctx: AppContext,
  token: string,
  hint: string | undefined,
  clientId: ClientId,
): Promise<Revocation> {
  for (const revokeAs of searchOrder(hint)) {
    const found = await revokeAs(ctx, token, clientId);
    if (found !== 'not_found') return found;
  }
  return 'not_found';
}

/** The kinds in the order a hint asks for; a quick exit's handle comes last unless it is named. */
function searchOrder(hint: string | undefined): RevokeAs[] {
  if (hint === EXIT_TOKEN_HINT) return [asExitHandle, asAccessToken, asRefreshToken];
  if (hint === 'refresh_token') return [asRefreshToken, asAccessToken, asExitHandle];
  return [asAccessToken, asRefreshToken, asExitHandle];
}

/** An access token ends alone (its login goes on), and so do the hub connections it opened. */
const asAccessToken: RevokeAs = async (ctx, token, clientId) => {
  const access = await ctx.tokens.verifyAccessToken(token);
  if (!access) return 'not_found';
  if (access.clientId !== clientId) return 'another_client';
  await ctx.tokens.revokeAccessToken(access);
  await ctx.hub.disconnectToken(access.tokenId);
  return 'revoked';
};

/** A refresh token ends its whole login: a logout. */
const asRefreshToken: RevokeAs = async (ctx, token, clientId) =>
  endLogin(ctx, await ctx.tokens.refreshTokenLogin(token), clientId);

/**
 * A quick exit's handle (contract/quick-exit.ts) ends its whole login too: the page sends it as it
 * goes, or at the next start when it went offline, and so never needs the refresh token itself. A
 * handle of any token of the login will do, so the one a tab got at sign-in outlives rotations.
 */
const asExitHandle: RevokeAs = async (ctx, token, clientId) =>
  endLogin(ctx, await ctx.tokens.exitHandleLogin(token), clientId);

/** Revokes the login's refresh tokens; its access tokens stop with it, and their hub connections close. */
async function endLogin(ctx: AppContext, login: TokenLogin | null, clientId: ClientId): Promise<Revocation> {
  if (!login) return 'not_found';
  if (login.clientId !== clientId) return 'another_client';
  await ctx.tokens.revokeFamily(login.familyId);
  await ctx.hub.disconnectToken(sessionRevocationKey(login.familyId));
  return 'revoked';
}

export async function principalFromHeader(ctx: AppContext, req: FastifyRequest) {
  const header = req.headers.authorization ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ? ctx.tokens.verifyAccessToken(match[1]) : null;
}

function requireClient(clientId: string | undefined): ClientId {
  if (!isClientId(clientId)) throw new OAuthError('invalid_client', 'unknown client_id', 401);
  return clientId;
}

function grantedScope(requested: string | undefined): string {
  const scopes = (requested ?? 'openid profile portal offline_access').split(/\s+/).filter(Boolean);
  const unknown = scopes.find((s) => !(ALLOWED_SCOPES as readonly string[]).includes(s));
  if (unknown) throw new OAuthError('invalid_scope', `scope ${unknown} is not supported`);
  return scopes.join(' ');
}

/** The login counters' kinds (server/auth/login-throttle.ts) as the login record names a refusal. */
const REFUSED_BY: Record<string, LoginRecordKind> = {
  pair: 'refused_pair',
  addr: 'refused_address',
  user: 'refused_username',
};

/** The counters one login attempt is counted on (server/auth/login-throttle.ts LOGIN_POLICY). */
function loginCounters(policy: LoginPolicy, isCode: boolean, username: string, address: string) {
  const name = username.toLowerCase();
  return isCode
    ? {
        // No brake over all addresses: wrong codes from many addresses armed it and kept every
        // participant out, while the code space alone makes guessing hopeless (server/staff/
        // personal-code.ts); the operator sees such a flood in /metrics (login_failures_total).
        hard: [{ key: `code-addr:${address}`, rule: policy.codeAddress }],
        brakes: [] as Counter[],
        reset: [] as Counter[],
      }
    : {
        hard: [{ key: `pair:${name}|${address}`, rule: policy.pair }],
        brakes: [
          { key: `addr:${address}`, rule: policy.address },
          { key: `user:${name}`, rule: policy.username },
        ],
        reset: [{ key: `pair:${name}|${address}`, rule: policy.pair }],
      };
}

/**
 * The device token a password login came with, when the server issued it to this account
 * (server/auth/device-tokens.ts): its digest (for the rotation) and its own counter. Anything else
 * sent as one - a stale copy, another account's, a token the app made itself before tokens were the
 * server's - is no token at all.
 */
async function presentedDevice(ctx: AppContext, accountId: number | null, token: string | undefined) {
  if (accountId === null || !token) return null;
  const digest = await ctx.throttle.devices.known(`account:${accountId}`, token);
  if (!digest) return null;
  return { digest, counter: { key: DeviceTokens.counterKey(token), rule: ctx.throttle.policy.device } };
}

/** Notes an attempt at an existing account in the login record; a failure to note it stops nothing. */
function noter(ctx: AppContext, req: FastifyRequest, address: string) {
  return async (accountId: number | null, kinds: LoginRecordKind[]) => {
    if (accountId === null) return;
    for (const kind of kinds) {
      await ctx.throttle.record
        .note(accountId, kind, address)
        .catch((error: unknown) => req.log.error({ err: error }, 'login record not written'));
    }
  };
}

async function passwordGrant(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  form: Form,
  clientId: ClientId,
) {
  const scope = grantedScope(form.scope);
  const username = (form.username ?? '').trim();
  const password = form.password ?? '';
  if (!username) throw new OAuthError('invalid_request', 'username is required');
  if (username.length > MAX_LOGIN_NAME_LENGTH)
    throw new OAuthError('invalid_request', 'username is too long');
  const isCode = password === '';
  // `npm start` behind a proxy on the same machine sees every outside client as this machine: a
  // request that came through one never opens a demo login (server/auth/demo-login-guard.ts).
  if (demoLoginRefused(ctx.config, req) && isDemoCredential(username, password, normalizePersonalCode)) {
    throw new OAuthError('invalid_grant', DEMO_LOGIN_FORWARDED, 403);
  }
  const address = addressKey(req.ip);
  const note = noter(ctx, req, address);
  const counters = loginCounters(ctx.throttle.policy, isCode, username, address);
  // A personal code names no account until it is checked; a username does.
  let accountId: Promise<number | null> | undefined;
  const account = () => (accountId ??= isCode ? Promise.resolve(null) : accountIdOf(ctx.db, username));
  // Only a login that brings a token looks its account up before the counters.
  const device =
    isCode || !form.device_token ? null : await presentedDevice(ctx, await account(), form.device_token);
  // The brakes (password logins only) spare the app with a device token this account was issued,
  // unless the token's own counter waits, and an address this very account signed in from before.
  const attempt = await ctx.throttle.begin(
    counters.hard,
    counters.brakes,
    async () => {
      const id = await account();
      return id !== null && (await ctx.throttle.isKnownAddress(`account:${id}`, address));
    },
    device?.counter,
  );
  const deviceBraked: LoginRecordKind[] = attempt.waitedOn.includes('device') ? ['device_token_braked'] : [];
  if (attempt.retryAfter > 0) {
    const refusedBy = [...new Set(attempt.waitedOn.flatMap((kind) => REFUSED_BY[kind] ?? []))];
    await note(await account(), [...refusedBy, ...deviceBraked]);
    reply.header('Retry-After', String(attempt.retryAfter));
    throw new OAuthError('invalid_grant', 'too_many_attempts', 429);
  }
  const checked = isCode
    ? await checkPersonalCode(ctx.db, normalizePersonalCode(username))
    : await checkPassword(ctx.db, username, password);
  const subject = checked === null ? null : await loadSubject(ctx.db, checked.accountId);
  const allowed = CLIENTS[clientId].allowedRoles as readonly string[];
  // A participant signs in with a code only, everyone else with a password; a staff account never
  // signs in to the child app; and credentials changed while they were checked open nothing. Each
  // mismatch looks like wrong credentials.
  const fits =
    subject &&
    subject.tokenGeneration === checked?.tokenGeneration &&
    subject.roles.some((r) => allowed.includes(r)) &&
    isCode === subject.roles.includes('participant');
  if (!subject || !fits) {
    ctx.metrics.loginFailed(isCode ? 'personal_code' : 'password');
    await note(await account(), ['wrong_password', ...deviceBraked]);
    throw new OAuthError('invalid_grant', 'invalid_username_or_password');
  }
  const deviceCounter = device ? [device.counter] : [];
  await ctx.throttle.succeeded(attempt, [...counters.reset, ...deviceCounter]);
  await ctx.throttle.rememberAddress(`account:${subject.accountId}`, address);
  await note(subject.accountId, [...(attempt.braked ? (['brake_passed'] as const) : []), ...deviceBraked]);
  const portalId = form.portalId ?? null;
  // A token carries only the roles its client serves: a staff token is never a child's, and back.
  const roles = subject.roles.filter((r) => allowed.includes(r));
  const tokens = await ctx.tokens.issue(
    { ...subject, roles },
    { issuer: siteOrigin(ctx.config, req), clientId, scope, portalId },
  );
  // The child app's password logins get a new device token each time, in place of the one they came
  // with: a copy of the old one spares nobody from now on. Codes meet no brake, staff use no app.
  if (isCode || clientId !== DEVICE_TOKEN_CLIENT) return tokens;
  const deviceToken = await ctx.throttle.devices.issue(
    `account:${subject.accountId}`,
    device?.digest ?? null,
  );
  return { ...tokens, [DEVICE_TOKEN_FIELD]: deviceToken };
}

async function refreshGrant(ctx: AppContext, req: FastifyRequest, form: Form, clientId: ClientId) {
  if (!form.refresh_token) throw new OAuthError('invalid_request', 'refresh_token is required');
  const refreshToken = form.refresh_token;
  const now = Math.floor(Date.now() / 1000);
  // One transaction: a fault before the successor is stored leaves the presented token unused.
  const revoked: string[] = [];
  const swapped = await ctx.db.transaction().execute(async (trx) => {
    const row = await ctx.tokens.rotate(refreshToken, clientId, trx, revoked);
    const subject = row ? await loadSubject(trx, row.account_id) : null;
    // A refresh token of an earlier generation (before a password change, say) is spent for good.
    if (!row || !subject || subject.tokenGeneration !== row.token_generation) return null;
    // Roles may have changed since the login (a role change also revokes this family, see accounts).
    const allowed = CLIENTS[clientId].allowedRoles as readonly string[];
    const roles = subject.roles.filter((r) => allowed.includes(r));
    if (roles.length === 0) return null;
    const issue = {
      subject: { ...subject, roles },
      req: { issuer: siteOrigin(ctx.config, req), clientId, scope: row.scope, portalId: row.portal_id },
      family: { id: row.family_id, expiresAt: row.family_expires_at, parentId: row.id },
    };
    const refresh = await ctx.tokens.storeRefreshToken(issue.subject, issue.req, now, issue.family, trx);
    return { ...issue, refresh };
  });
  // A refresh token used twice revoked its login: the access tokens it gave, a thief's among them,
  // are refused from now on; their hub connections close (after the commit, so none comes back).
  for (const family of revoked) await ctx.hub.disconnectToken(sessionRevocationKey(family));
  if (!swapped) throw new OAuthError('invalid_grant', 'invalid_refresh_token');
  return ctx.tokens.sign(swapped.subject, swapped.req, now, swapped.family, swapped.refresh);
}
