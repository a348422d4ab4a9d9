import type { FastifyRequest } from 'fastify';
import { APP_VARIANTS, VARIANT_HEADER } from '../../contract/variant.ts';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import type { Principal, Role } from '../auth/principal.ts';
import { API_SCOPE, isStaff } from '../auth/principal.ts';
import { principalFromHeader } from '../auth/routes.ts';

/** A valid, unrevoked bearer token with the 'portal' scope, whatever its client; else 401/403. */
export async function authenticate(ctx: AppContext, req: FastifyRequest): Promise<Principal> {
  const principal = await principalFromHeader(ctx, req);
  if (!principal) throw new ApiError('unauthorized');
  // A token granted without the 'portal' scope (e.g. only 'openid' for userinfo) is no API key.
  if (!principal.scopes.includes(API_SCOPE)) throw new ApiError('forbidden');
  req.principal = principal;
  return principal;
}

/**
 * The child app's API takes a token of the child app's client. Staff work only through the staff
 * API, so they can never write as a child (or read as one).
 */
export async function requireChildApp(ctx: AppContext, req: FastifyRequest): Promise<void> {
  if (isStaff(await authenticate(ctx, req))) throw new ApiError('forbidden');
}

/** The staff API takes a staff token (client portal-staff), or 403 (401 without a valid token). */
export async function requireStaffApp(ctx: AppContext, req: FastifyRequest): Promise<void> {
  if (!isStaff(await authenticate(ctx, req))) throw new ApiError('forbidden');
}

/** A staff token that also carries `role`; the staff API checks it before the body is even read. */
export function requireRole(req: FastifyRequest, role: StaffRole): void {
  if (!req.principal?.roles.includes(role)) throw new ApiError('forbidden');
}

export type StaffRole = Extract<Role, 'counsellor' | 'group_leader' | 'admin'>;

export function principalOf(req: Pick<FastifyRequest, 'principal'>): Principal {
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

/**
 * A browser names the page a request comes from. A write from another site's page (a form posted
 * cross-site, say) is refused; tools that send no Origin are not browsers and carry no victim's
 * session. Reads are left alone: they change nothing.
 */
export function checkOrigin(req: FastifyRequest, ownOrigin: string) {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return;
  const origin = req.headers.origin;
  if (origin === undefined) return;
  if (origin !== ownOrigin) throw new ApiError('foreign_origin');
}

/** Whether any string in a parsed body, query or params holds a NUL (files, as bytes, are not looked at). */
function holdsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 20 || value === null || typeof value !== 'object' || value instanceof Uint8Array) return false;
  return Object.entries(value).some(([key, v]) => key.includes('\u0000') || holdsNul(v, depth + 1));
}

/**
 * preValidation for every route: a NUL character is no text a person writes, and PostgreSQL cannot
 * store it; refused as invalid input (400) rather than failing in the database (500).
 */
export async function refuseNulCharacters(req: FastifyRequest) {
  if (holdsNul(req.body) || holdsNul(req.query) || holdsNul(req.params)) throw new ApiError('validation');
}
