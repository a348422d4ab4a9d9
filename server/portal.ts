import type { FastifyPluginAsync } from 'fastify';
import { siteOrigin, type AppContext, type RouteModule, type TypeBoxProvider } from './context.ts';
import { ApiError } from './errors.ts';
import { auditStaffRequests } from './staff/audit-log.ts';
import { staffApi } from './staff/staff-api.ts';
import type { StaffRole } from './http/guard.ts';
import { registerAuditRoutes } from './staff/audit-log.ts';
import { registerStaffAccountRoutes } from './staff/account-routes.ts';
import { registerLoginRecordRoutes } from './staff/login-record-routes.ts';
import { registerCounsellorRoutes } from './conversations/counsellor-routes.ts';
import { registerCounsellorNotes } from './conversations/counsellor-notes.ts';
import { registerPeerModerationRoutes } from './peers/staff-routes.ts';
import { registerStaffMeetingRoutes } from './meetings/staff-routes.ts';
import { registerGroupLeaderSeriesRoutes } from './meetings/leader-series-routes.ts';
import { registerGroupLeaderMeetingReads } from './meetings/leader-read-routes.ts';
import { checkOrigin, checkVariantHeader, requireChildApp } from './http/guard.ts';
import { storeIdempotentReplies } from './http/idempotency.ts';
import { registerProfileRoutes } from './profile/child-routes.ts';
import { registerLoggingRoutes } from './http/client-log-routes.ts';
import { registerMeetingRoutes } from './meetings/child-routes.ts';
import { registerConversationRoutes } from './conversations/child-routes.ts';
import { registerChatRoutes } from './conversations/chat-routes.ts';
import { registerChatFeedback, registerFeedbackSummary } from './conversations/chat-feedback.ts';
import { registerNotificationRoutes } from './notifications/child-routes.ts';
import { registerContactMessageRoutes } from './profile/contact-message-routes.ts';
import { compressJsonAnswer } from './http/compression.ts';
import { registerAssistantRoutes } from './assistant/assistant-routes.ts';
import { registerPeerPostRoutes } from './peers/child-routes.ts';
import { checkAntiForgery, registerAntiForgeryRoute } from './http/anti-forgery.ts';
import { registerPushRoutes } from './push/child-routes.ts';

/** The child app's API of SPEC §7, under /portal (staff have their own API under /portal/staff). */
export const CHILD_API: RouteModule[] = [
  registerAntiForgeryRoute,
  registerProfileRoutes,
  registerLoggingRoutes,
  registerMeetingRoutes,
  registerConversationRoutes,
  registerChatRoutes,
  registerChatFeedback,
  registerNotificationRoutes,
  registerContactMessageRoutes,
  registerAssistantRoutes,
  registerPeerPostRoutes,
  registerPushRoutes,
];

/** Which role may call which routes of the staff API (docs/server.md, staff API). */
export const STAFF_API: Record<StaffRole, RouteModule[]> = {
  counsellor: [registerCounsellorRoutes, registerCounsellorNotes, registerPeerModerationRoutes],
  group_leader: [
    registerStaffMeetingRoutes,
    registerGroupLeaderSeriesRoutes,
    registerGroupLeaderMeetingReads,
  ],
  admin: [
    registerAuditRoutes,
    registerStaffAccountRoutes,
    registerLoginRecordRoutes,
    registerFeedbackSummary,
  ],
};

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
    // After the routes' own authentication (onRequest hooks all), before the body is read: a write
    // that a verified bearer token proves needs no cookie (server/http/anti-forgery.ts).
    app.addHook('preParsing', async (req) => checkAntiForgery(ctx, req));
    storeIdempotentReplies(app, ctx);
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
