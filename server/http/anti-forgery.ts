import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ANTI_FORGERY_HEADER,
  ANTI_FORGERY_PATH,
  antiForgeryCookieName,
  type AntiForgeryResponse,
} from '../../contract/anti-forgery.ts';
import type { Api, AppContext } from '../context.ts';
import { siteOrigin } from '../context.ts';
import { ApiError } from '../errors.ts';
import { cookieValues } from '../../contract/cookie-header.ts';

/** 32 random bytes, base64url: what the server issues, and all it accepts. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Over https the cookie is `__Host-XSRF-TOKEN`, which nobody but this host's secure pages can set. */
function cookieName(ctx: AppContext, req: FastifyRequest): { name: string; secure: boolean } {
  const secure = siteOrigin(ctx.config, req).startsWith('https:');
  return { name: antiForgeryCookieName(secure), secure };
}

/** The request's distinct anti-forgery cookie values that the server could have issued. */
function tokensOf(req: FastifyRequest, name: string): string[] {
  return [...new Set(cookieValues(req.headers.cookie, name).filter((value) => TOKEN.test(value)))];
}

/**
 * SPEC §7's double submit, for every write under /portal (a preParsing hook: after every onRequest
 * hook, the routes' authentication included, and before the body is read).
 *
 * A write whose bearer token the route verified (a child's, a member of staff's, the assistant's)
 * needs no cookie: a browser never adds that header by itself, and another site's page cannot set
 * it without a CORS grant this API never gives. So a cookie planted beside ours (cookie tossing from
 * a sibling subdomain, a plain-http answer or a page at a longer path) can never refuse such a
 * write. Any other write that carries cookies (a browser's: registration, the username check, an
 * assistant token) must carry one of the anti-forgery cookie's values in the header, which another
 * site's page cannot read. A caller without cookies (a server, a native client) has nothing a
 * forged request could ride on.
 */
export function checkAntiForgery(ctx: AppContext, req: FastifyRequest) {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return;
  if (!req.headers.cookie) return;
  if (req.principal || req.assistantSubject) return;
  const header = req.headers[ANTI_FORGERY_HEADER.toLowerCase()];
  const matches =
    typeof header === 'string' &&
    TOKEN.test(header) &&
    tokensOf(req, cookieName(ctx, req).name).some((cookie) =>
      timingSafeEqual(Buffer.from(header), Buffer.from(cookie)),
    );
  if (!matches) throw new ApiError('anti_forgery');
}

/**
 * Answers a value that this very answer sets in the cookie at `Path=/`, so every write carries it.
 * The Cookie header names no cookie's path: one value may be ours, or one planted at a longer path
 * (`/portal/antiforgery`) that writes never carry, and is set again at `Path=/` either way (a no-op
 * for ours, so other tabs keep the value they copied); of several, which one is ours cannot be told,
 * and a new value replaces ours. Never a value only some requests carry.
 */
function issue(ctx: AppContext, req: FastifyRequest, reply: FastifyReply): AntiForgeryResponse {
  const { name, secure } = cookieName(ctx, req);
  const found = tokensOf(req, name);
  const token = found.length === 1 ? found[0]! : randomBytes(32).toString('base64url');
  // Readable by the page (no HttpOnly: copying it is the point), sent to this site only.
  reply.header('Set-Cookie', `${name}=${token}; Path=/; SameSite=Strict${secure ? '; Secure' : ''}`);
  return { token };
}

/** `GET {api}/antiforgery` (public): the value a client copies into the header of its writes. */
export function registerAntiForgeryRoute(app: Api, ctx: AppContext) {
  app.get(ANTI_FORGERY_PATH, { config: { public: true } }, async (req, reply) => issue(ctx, req, reply));
}
