import { ClientLogBody } from '../../contract/schemas/logging.ts';
import type { Api, AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { nowIso } from '../db/database.ts';
import { principalOf } from './guard.ts';
import { idempotent } from './idempotency.ts';

const MAX = { message: 2000, stack: 8000, url: 500 };

/** Drops query and hash: they may carry codes or tokens that must never be stored. */
export function stripUrl(url: string): string {
  return url.split(/[?#]/, 1)[0] ?? '';
}

/** SPEC §7 Logging: POST {api}/createclientlogs. */
export function registerLoggingRoutes(app: Api, ctx: AppContext) {
  app.post(
    '/createclientlogs',
    {
      preHandler: [idempotent(ctx, async () => ({ success: true })), ctx.limits.preHandler('clientLog')],
      schema: { body: ClientLogBody },
    },
    async (req, reply) => {
      const principal = principalOf(req);
      const body = req.body;
      if (body.message.trim() === '') throw new ApiError('validation');
      const level = ['error', 'warn', 'info'].includes(String(body.level)) ? String(body.level) : 'error';
      await ctx.db
        .insertInto('client_logs')
        .values({
          account_id: principal.accountId,
          message: body.message.slice(0, MAX.message),
          stack: typeof body.stack === 'string' ? body.stack.slice(0, MAX.stack) : null,
          url: typeof body.url === 'string' ? stripUrl(body.url).slice(0, MAX.url) : null,
          level,
          variant: (req.headers['x-app-variant'] as string | undefined) ?? null,
          created_date: nowIso(),
        })
        .execute();
      return reply.code(201).send({ success: true });
    },
  );
}
