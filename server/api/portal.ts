import type { FastifyPluginAsync } from 'fastify';
import { siteOrigin, type AppContext, type RouteModule, type TypeBoxProvider } from '../context.ts';
import { ApiError } from '../errors.ts';
import { auditStaffRequests } from '../staff/audit-log.ts';
import { STAFF_API, staffApi } from '../staff/staff-api.ts';
import { checkOrigin, checkVariantHeader, requireChildApp } from './guard.ts';
import { storeIdempotentReply } from './idempotency.ts';
import { registerProfileRoutes } from './profile.ts';
import { registerLoggingRoutes } from './logging.ts';
import { registerMeetingRoutes } from './meetings.ts';
import { registerConversationRoutes } from './conversations.ts';
import { registerChatRoutes } from './chat.ts';
import { registerNotificationRoutes } from './notifications.ts';
import { registerContactMessageRoutes } from './contact-messages.ts';
import { compressJsonAnswer } from './compression.ts';
import { registerAssistantRoutes } from '../assistant/assistant-routes.ts';
import { registerPeerPostRoutes } from './peer-posts.ts';

/** The child app's API of SPEC §7, under /portal (staff have their own API under /portal/staff). */
export const CHILD_API: RouteModule[] = [
  registerProfileRoutes,
  registerLoggingRoutes,
  registerMeetingRoutes,
  registerConversationRoutes,
  registerChatRoutes,
  registerNotificationRoutes,
  registerContactMessageRoutes,
  registerAssistantRoutes,
  registerPeerPostRoutes,
];

/**
 * The child app's routes: each one takes a token of the child app's client unless it says
 * `config: { public: true }`. Authentication is an onRequest hook, so it runs before the body is read.
 */
export function childApi(ctx: AppContext, modules: RouteModule[]): FastifyPluginAsync {
  return async (app) => {
    app.addHook('onRequest', async (req) => {
      if (req.routeOptions.config.public !== true) await requireChildApp(ctx, req);
    });
    const api = app.withTypeProvider<TypeBoxProvider>();
    for (const register of modules) await register(api, ctx);
  };
}

/**
 * Everything under /portal: every call names a known variant (SPEC §7) and no write comes from
 * another site's page; every answer is private and never stored. Inside, the child app's API and
 * the staff API each authenticate their own routes by default.
 */
export function portal(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    app.addHook('onRequest', async (req) => {
      checkVariantHeader(req);
      checkOrigin(req, siteOrigin(ctx.config, req));
    });
    app.addHook('onSend', storeIdempotentReply(ctx));
    auditStaffRequests(app, ctx);
    app.addHook('onSend', async (_req, reply, payload) => {
      // Nothing personal in any cache: every API answer is private and never stored.
      if (!reply.hasHeader('Cache-Control')) reply.header('Cache-Control', 'no-store');
      return payload;
    });
    // Last: the hooks above read the answer as written.
    app.addHook('onSend', compressJsonAnswer);
    // An unknown API path runs the hooks above too, and answers the API's own 404.
    app.setNotFoundHandler((_req, reply) => reply.code(404).send(new ApiError('not_found').toBody()));
    await app.register(childApi(ctx, CHILD_API));
    await app.register(staffApi(ctx, STAFF_API), { prefix: '/staff' });
  };
}
