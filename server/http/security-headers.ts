import type { FastifyInstance } from 'fastify';
import { siteOrigin, type AppContext } from '../context.ts';
import { contentSecurityPolicy, HSTS, PERMISSIONS_POLICY } from '../security/browser-policy.ts';
import { runtimeConfig } from './runtime-config.ts';

/**
 * The headers every answer carries: no sniffing, no referrer, the Content-Security-Policy (a worker's
 * script answer sets the worker's own), no browser feature the app does not use, no opener, HSTS on
 * https, and no-store on every auth answer.
 */
export function registerSecurityHeaders(app: FastifyInstance, ctx: AppContext): void {
  const { config } = ctx;
  const https = config.publicOrigin?.startsWith('https:') ?? false;
  app.addHook('onSend', async (req, reply, payload) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'no-referrer');
    // Every answer, not only the pages: a worker's script answer sets the worker's own policy.
    const origin = siteOrigin(config, req);
    reply.header('Content-Security-Policy', contentSecurityPolicy(runtimeConfig(ctx, origin), origin));
    // Nothing the app uses; a page that a script got into could not turn them on either.
    reply.header('Permissions-Policy', PERMISSIONS_POLICY);
    // No other window (an opener, a popup) keeps a handle on the child's tab.
    reply.header('Cross-Origin-Opener-Policy', 'same-origin');
    if (https) reply.header('Strict-Transport-Security', HSTS);
    // Nothing personal in any cache: every auth answer is private and never stored (the API's
    // answers are made so by its plugin, server/portal.ts).
    if (req.url.startsWith('/connect/') && !reply.hasHeader('Cache-Control')) {
      reply.header('Cache-Control', 'no-store');
    }
    return payload;
  });
}
