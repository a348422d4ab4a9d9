import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ANTI_FORGERY_COOKIE,
  ANTI_FORGERY_HEADER,
  ANTI_FORGERY_PATH,
  type AntiForgeryResponse,
} from '../../contract/anti-forgery.ts';
import type { Api, AppContext } from '../context.ts';
import { siteOrigin } from '../context.ts';
import { ApiError } from '../errors.ts';
import { cookieValues } from '../../contract/cookie-header.ts';

/** 32 random bytes, base64url: what the server issues, and all it accepts. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The request's anti-forgery cookies that the server could have issued. */
function tokensOf(req: FastifyRequest): string[] {
  return cookieValues(req.headers.cookie, ANTI_FORGERY_COOKIE).filter((value) => TOKEN.test(value));
}

/**
 * SPEC §7's double submit, for every write under /portal: a request that carries cookies (a
 * browser's) must carry the anti-forgery cookie's value in the header as well, which another site's
 * page cannot read. A caller without cookies (a server, a native client) has nothing a forged
 * request could ride on, and its bearer token already is a header no other site can set.
 */
export function checkAntiForgery(req: FastifyRequest) {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return;
  if (!req.headers.cookie) return;
  const header = req.headers[ANTI_FORGERY_HEADER.toLowerCase()];
  const matches =
    typeof header === 'string' &&
    TOKEN.test(header) &&
    tokensOf(req).some((cookie) => timingSafeEqual(Buffer.from(header), Buffer.from(cookie)));
  if (!matches) throw new ApiError('anti_forgery');
}

/** Sets the cookie when the browser has none (or one the server did not issue), and says its value. */
function issue(ctx: AppContext, req: FastifyRequest, reply: FastifyReply): AntiForgeryResponse {
  const [existing] = tokensOf(req);
  if (existing) return { token: existing };
  const token = randomBytes(32).toString('base64url');
  const secure = siteOrigin(ctx.config, req).startsWith('https:') ? '; Secure' : '';
  // Readable by the page (no HttpOnly: copying it is the point), sent to this site only.
  reply.header('Set-Cookie', `${ANTI_FORGERY_COOKIE}=${token}; Path=/; SameSite=Strict${secure}`);
  return { token };
}

/** `GET {api}/antiforgery` (public): the value a client copies into the header of its writes. */
export function registerAntiForgeryRoute(app: Api, ctx: AppContext) {
  app.get(ANTI_FORGERY_PATH, { config: { public: true } }, async (req, reply) => issue(ctx, req, reply));
}
