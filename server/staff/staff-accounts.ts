import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import type { Role } from '../auth/principal.ts';
import { revokeAccount } from '../auth/revoke-account.ts';
import { principalOf } from '../api/guard.ts';
import { idParams, object } from '../api/schemas.ts';
import { requireAdmin } from './audit-log.ts';

const STAFF_ROLES: readonly Role[] = ['counsellor', 'group_leader', 'admin'];

/**
 * An administrator sets which staff roles a staff account has. A role change ends every session of
 * that account at once (tokens carry roles), so a counsellor who is no longer one cannot go on
 * reading the queue for the rest of a token's life.
 */
export function registerStaffAccountRoutes(app: FastifyInstance, ctx: AppContext) {
  app.put(
    '/accounts/:id/roles',
    {
      schema: {
        params: idParams,
        body: object(
          {
            roles: {
              type: 'array',
              items: { type: 'string', enum: STAFF_ROLES },
              minItems: 1,
              maxItems: 3,
              uniqueItems: true,
            },
          },
          ['roles'],
        ),
      },
    },
    async (req: FastifyRequest) => {
      const principal = principalOf(req);
      requireAdmin(principal);
      const accountId = (req.params as { id: number }).id;
      // An administrator cannot lock themself out; another administrator can.
      if (accountId === principal.accountId) throw new ApiError('conflict', 'own roles');
      const roles = (req.body as { roles: Role[] }).roles;
      const current = await ctx.db
        .selectFrom('account_roles')
        .innerJoin('accounts', 'accounts.id', 'account_roles.account_id')
        .select('account_roles.role')
        .where('account_roles.account_id', '=', accountId)
        .where('accounts.deleted_date', 'is', null)
        .execute();
      // Only staff accounts: a child's or participant's account never becomes staff here.
      if (current.length === 0 || current.some((r) => !STAFF_ROLES.includes(r.role as Role))) {
        throw new ApiError('not_found');
      }
      await ctx.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('account_roles').where('account_id', '=', accountId).execute();
        if (roles.length > 0) {
          await trx
            .insertInto('account_roles')
            .values(roles.map((role) => ({ account_id: accountId, role })))
            .execute();
        }
      });
      await revokeAccount(ctx, accountId);
      return { id: accountId, roles };
    },
  );
}
