import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ALLOWED_SCOPES, CLIENTS, issuerOf, type AppContext, type ClientId } from '../context.ts';
import { OAuthError } from '../errors.ts';
import { checkPassword, checkPersonalCode, loadSubject } from './accounts.ts';
import { LOGIN_LIMITS, type ThrottleKey } from './login-throttle.ts';
import { normalizePersonalCode } from './passwords.ts';
import { SIGNING_ALG } from './keys.ts';

type Form = Record<string, string | undefined>;

/** The OpenID Connect / OAuth 2.0 endpoints of SPEC §7 Authentication. */
export function registerAuthRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get('/.well-known/openid-configuration', async (req) => {
    const issuer = issuerOf(req);
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
    keys: ctx.keys.all.map((k) => k.publicJwk),
  }));

  app.get('/connect/userinfo', async (req, reply) => {
    const principal = await principalFromHeader(ctx, req);
    if (!principal) return reply.code(401).header('WWW-Authenticate', 'Bearer error="invalid_token"').send();
    const subject = await loadSubject(ctx.db, principal.accountId);
    if (!subject) return reply.code(401).send();
    return { sub: String(subject.accountId), name: subject.name, role: subject.roles };
  });

  app.post('/connect/token', async (req, reply) => {
    reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
    try {
      const form = (req.body ?? {}) as Form;
      const clientId = requireClient(form.client_id);
      if (form.grant_type === 'password') return await passwordGrant(ctx, req, reply, form, clientId);
      if (form.grant_type === 'refresh_token') return await refreshGrant(ctx, req, form, clientId);
      throw new OAuthError('unsupported_grant_type', 'grant_type must be password or refresh_token');
    } catch (e) {
      if (e instanceof OAuthError) {
        return reply.code(e.status).send({ error: e.error, error_description: e.description });
      }
      throw e;
    }
  });

  // RFC 7009: answer 200 for any token, known or not, access or refresh.
  app.post('/connect/revocation', async (req, reply) => {
    const form = (req.body ?? {}) as Form;
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
  if (!clientId || !(clientId in CLIENTS)) throw new OAuthError('invalid_client', 'unknown client_id', 401);
  return clientId as ClientId;
}

function grantedScope(requested: string | undefined): string {
  const scopes = (requested ?? 'openid profile portal offline_access').split(/\s+/).filter(Boolean);
  const unknown = scopes.find((s) => !(ALLOWED_SCOPES as readonly string[]).includes(s));
  if (unknown) throw new OAuthError('invalid_scope', `scope ${unknown} is not supported`);
  return scopes.join(' ');
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
  const isCode = password === '';
  const accountKey: ThrottleKey = isCode ? 'code:*' : `user:${username.toLowerCase()}`;
  const keys: Array<[ThrottleKey, number]> = [
    [`addr:${req.ip}`, LOGIN_LIMITS.perAddress],
    [accountKey, isCode ? LOGIN_LIMITS.personalCodeGlobal : LOGIN_LIMITS.perAccount],
  ];
  const wait = await ctx.throttle.blockedFor(keys);
  if (wait > 0) {
    reply.header('Retry-After', String(wait));
    throw new OAuthError('invalid_grant', 'too_many_attempts', 429);
  }
  const accountId = isCode
    ? await checkPersonalCode(ctx.db, normalizePersonalCode(username))
    : await checkPassword(ctx.db, username, password);
  const subject = accountId === null ? null : await loadSubject(ctx.db, accountId);
  const allowed = CLIENTS[clientId].allowedRoles as readonly string[];
  // A participant signs in with a code only, everyone else with a password; a staff account never
  // signs in to the child app. Each mismatch looks like wrong credentials.
  const fits =
    subject &&
    subject.roles.some((r) => allowed.includes(r)) &&
    isCode === subject.roles.includes('participant');
  if (!subject || !fits) {
    await ctx.throttle.recordFailure(keys.map(([k]) => k));
    throw new OAuthError('invalid_grant', 'invalid_username_or_password');
  }
  if (!isCode) await ctx.throttle.clear(accountKey);
  const portalId = form.portalId ?? null;
  return ctx.tokens.issue(subject, { issuer: issuerOf(req), clientId, scope, portalId });
}

async function refreshGrant(ctx: AppContext, req: FastifyRequest, form: Form, clientId: ClientId) {
  if (!form.refresh_token) throw new OAuthError('invalid_request', 'refresh_token is required');
  const row = await ctx.tokens.rotate(form.refresh_token, clientId);
  const subject = row ? await loadSubject(ctx.db, row.account_id) : null;
  if (!row || !subject) throw new OAuthError('invalid_grant', 'invalid_refresh_token');
  return ctx.tokens.issue(
    subject,
    { issuer: issuerOf(req), clientId, scope: row.scope, portalId: row.portal_id },
    { id: row.family_id, expiresAt: row.family_expires_at },
  );
}
