import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import { siteOrigin, type AppContext, type TypeBoxProvider } from '../context.ts';
import { ApiError, OAuthError } from '../errors.ts';
import {
  accountIdOf,
  checkPassword,
  checkPersonalCode,
  loadSubject,
  type CheckedAccount,
} from './accounts.ts';
import { ALLOWED_SCOPES, CLIENTS, isClientId, type ClientId } from './clients.ts';
import type { Counter, LoginPolicy } from './login-throttle.ts';
import { normalizePersonalCode } from './passwords.ts';
import { SIGNING_ALG } from './keys.ts';
import { addressKey } from '../security/client-address.ts';
import { LOGIN_NAME_MAX_LENGTH } from '../../contract/limits.ts';
import { ConnectForm } from '../../contract/schemas/connect.ts';

type Form = ConnectForm;

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

  // RFC 7009: answer 200 for any token, known or not, access or refresh.
  app.post('/connect/revocation', { schema: { body: ConnectForm } }, async (req, reply) => {
    // Signing out: the browser drops its HTTP cache for the site too (whatever a misconfigured proxy
    // or an older version let in). Only "cache": the service worker's app shell and the assistant's
    // cookie (SPEC §4) stay, so the signed-out app still opens offline.
    reply.header('Clear-Site-Data', '"cache"');
    const form: Form = req.body ?? {};
    const token = form.token ?? '';
    if (!token)
      return reply.code(400).send({ error: 'invalid_request', error_description: 'token is required' });
    const asAccess =
      form.token_type_hint !== 'refresh_token' ? await ctx.tokens.verifyAccessToken(token) : null;
    if (asAccess) {
      await ctx.tokens.revokeAccessToken(asAccess);
      await ctx.hub.disconnectToken(asAccess.tokenId);
    } else if (!(await ctx.tokens.revokeRefreshToken(token)) && form.token_type_hint === 'refresh_token') {
      const access = await ctx.tokens.verifyAccessToken(token);
      if (access) {
        await ctx.tokens.revokeAccessToken(access);
        await ctx.hub.disconnectToken(access.tokenId);
      }
    }
    return reply.code(200).send();
  });
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

/** The counters one login attempt is counted on (server/auth/login-throttle.ts LOGIN_POLICY). */
function loginCounters(policy: LoginPolicy, isCode: boolean, username: string, address: string) {
  const name = username.toLowerCase();
  return isCode
    ? {
        hard: [{ key: `code-addr:${address}`, rule: policy.codeAddress }],
        brakes: [{ key: 'code-all', rule: policy.codeGlobal }],
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
  const address = addressKey(req.ip);
  const counters = loginCounters(ctx.throttle.policy, isCode, username, address);
  // A personal code names its account only once checked; the check is made at most once.
  let codeCheck: Promise<CheckedAccount | null> | null = null;
  const checkCode = () => (codeCheck ??= checkPersonalCode(ctx.db, normalizePersonalCode(username)));
  // The brakes spare an address this very account signed in from before (for a code: the account
  // the code opens, so one participant's address is no free pass for guessing other codes).
  const accountOf = async () =>
    isCode ? ((await checkCode())?.accountId ?? null) : await accountIdOf(ctx.db, username);
  const attempt = await ctx.throttle.begin(counters.hard, counters.brakes, async () => {
    const id = await accountOf();
    return id !== null && (await ctx.throttle.isKnownAddress(`account:${id}`, address));
  });
  if (attempt.retryAfter > 0) {
    reply.header('Retry-After', String(attempt.retryAfter));
    throw new OAuthError('invalid_grant', 'too_many_attempts', 429);
  }
  const checked = isCode ? await checkCode() : await checkPassword(ctx.db, username, password);
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
  if (!subject || !fits) throw new OAuthError('invalid_grant', 'invalid_username_or_password');
  await ctx.throttle.succeeded(attempt, counters.reset);
  await ctx.throttle.rememberAddress(`account:${subject.accountId}`, address);
  const portalId = form.portalId ?? null;
  // A token carries only the roles its client serves: a staff token is never a child's, and back.
  const roles = subject.roles.filter((r) => allowed.includes(r));
  return ctx.tokens.issue(
    { ...subject, roles },
    { issuer: siteOrigin(ctx.config, req), clientId, scope, portalId },
  );
}

async function refreshGrant(ctx: AppContext, req: FastifyRequest, form: Form, clientId: ClientId) {
  if (!form.refresh_token) throw new OAuthError('invalid_request', 'refresh_token is required');
  const refreshToken = form.refresh_token;
  const now = Math.floor(Date.now() / 1000);
  // One transaction: a fault before the successor is stored leaves the presented token unused.
  const swapped = await ctx.db.transaction().execute(async (trx) => {
    const row = await ctx.tokens.rotate(refreshToken, clientId, trx);
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
  if (!swapped) throw new OAuthError('invalid_grant', 'invalid_refresh_token');
  return ctx.tokens.sign(swapped.subject, swapped.req, now, swapped.family, swapped.refresh);
}
