import type { FastifyRequest } from 'fastify';
import { APP_VARIANTS, VARIANT_HEADER } from '../../contract/variant.ts';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import type { Principal } from '../auth/principal.ts';
import { API_SCOPE, isStaff } from '../auth/principal.ts';
import { principalFromHeader } from '../auth/routes.ts';

/** preHandler for every non-public {api} route: a valid, unrevoked bearer token or 401. */
export function requireAuth(ctx: AppContext) {
  return async (req: FastifyRequest) => {
    const principal = await principalFromHeader(ctx, req);
    if (!principal) throw new ApiError('unauthorized');
    // A token granted without the 'portal' scope (e.g. only 'openid' for userinfo) is no API key.
    if (!principal.scopes.includes(API_SCOPE)) throw new ApiError('forbidden');
    req.principal = principal;
  };
}

/** preHandler for the staff API: a staff token or 403 (401 without a valid token). */
export function requireStaff(ctx: AppContext) {
  const auth = requireAuth(ctx);
  return async (req: FastifyRequest) => {
    await auth(req);
    if (!isStaff(req.principal!)) throw new ApiError('forbidden');
  };
}

export function principalOf(req: FastifyRequest): Principal {
  if (!req.principal) throw new ApiError('unauthorized');
  return req.principal;
}

/**
 * Every call names its variant (SPEC §7). A missing header is taken as the server's own variant, so
 * tools such as curl still work; an unknown one is a client bug and is refused.
 */
export function checkVariantHeader(req: FastifyRequest) {
  const value = req.headers[VARIANT_HEADER.toLowerCase()];
  if (value === undefined) return;
  if (typeof value !== 'string' || !(APP_VARIANTS as readonly string[]).includes(value)) {
    throw new ApiError('unknown_variant');
  }
}
