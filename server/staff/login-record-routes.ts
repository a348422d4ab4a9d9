import type { Api, AppContext } from '../context.ts';
import { principalOf } from '../http/guard.ts';
import { LoginRecordQuery } from '../../contract/schemas/login-record.ts';
import { requireAdmin } from './audit-log.ts';

/**
 * The administrator's reading of the login record (server/auth/login-record.ts): which account was
 * guessed at or braked, when, how often and in which way. `GET /portal/staff/login-record`.
 */
export function registerLoginRecordRoutes(app: Api, ctx: AppContext) {
  app.get('/login-record', { schema: { querystring: LoginRecordQuery } }, async (req) => {
    requireAdmin(principalOf(req));
    return { value: await ctx.throttle.record.list(req.query) };
  });
}
