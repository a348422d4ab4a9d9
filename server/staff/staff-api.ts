import type { FastifyPluginAsync } from 'fastify';
import type { AppContext, RouteModule, TypeBoxProvider } from '../context.ts';
import { requireRole, requireStaffApp, type StaffRole } from '../http/guard.ts';

/** Routes that take a staff token with `role`: an onRequest hook, so the check precedes the body. */
export function staffRoutes(ctx: AppContext, role: StaffRole, modules: RouteModule[]): FastifyPluginAsync {
  return async (app) => {
    app.addHook('onRequest', async (req) => requireRole(req, role));
    const api = app.withTypeProvider<TypeBoxProvider>();
    for (const register of modules) await register(api, ctx);
  };
}

/**
 * The staff API under /portal/staff: staff tokens only (client portal-staff; others 403, none 401),
 * and of those only the role each group of routes serves. No route here is public.
 */
export function staffApi(ctx: AppContext, api: Record<StaffRole, RouteModule[]>): FastifyPluginAsync {
  return async (app) => {
    app.addHook('onRequest', async (req) => requireStaffApp(ctx, req));
    for (const [role, modules] of Object.entries(api) as Array<[StaffRole, RouteModule[]]>) {
      await app.register(staffRoutes(ctx, role, modules));
    }
  };
}
