import type { Api, AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { revokeAccount } from '../auth/revoke-account.ts';
import { principalOf } from '../http/guard.ts';
import { IdParams } from '../../contract/schemas/common.ts';
import { STAFF_ROLES, StaffRolesBody } from '../../contract/schemas/staff.ts';
import { requireAdmin } from './audit-log.ts';

/**
 * An administrator sets which staff roles a staff account has. A role change ends every session of
 * that account at once (tokens carry roles), so a counsellor who is no longer one cannot go on
 * reading the queue for the rest of a token's life.
 */
export function registerStaffAccountRoutes(app: Api, ctx: AppContext) {
  app.put(
    '/accounts/:id/roles',
    {
      schema: { params: IdParams, body: StaffRolesBody },
    },
    async (req) => {
      const principal = principalOf(req);
      requireAdmin(principal);
      const accountId = req.params.id;
      // An administrator cannot lock themself out; another administrator can.
      if (accountId === principal.accountId) throw new ApiError('conflict', 'own roles');
      const roles = req.body.roles;
      const current = await ctx.db
        .selectFrom('account_roles')
        .innerJoin('accounts', 'accounts.id', 'account_roles.account_id')
        .select('account_roles.role')
        .where('account_roles.account_id', '=', accountId)
        .where('accounts.deleted_date', 'is', null)
        .execute();
      // Only staff accounts: a child's or participant's account never becomes staff here.
      if (current.length === 0 || current.some((r) => !STAFF_ROLES.some((role) => role === r.role))) {
        throw new ApiError('not_found');
      }
      await ctx.db.transaction().execute(async (trx) => {
        // Two administrators demoting each other at the same moment must not leave the site with
        // none: every role change first locks the administrators' account rows (PostgreSQL; SQLite
        // runs one transaction at a time), so changes run one after the other, and each checks
        // what it leaves before it commits.
        let admins = trx
          .selectFrom('accounts')
          .innerJoin('account_roles', 'account_roles.account_id', 'accounts.id')
          .select('accounts.id')
          .where('account_roles.role', '=', 'admin')
          .where('accounts.deleted_date', 'is', null);
        if (ctx.dbKind === 'postgres') admins = admins.forUpdate('accounts');
        await admins.execute();
        await trx.deleteFrom('account_roles').where('account_id', '=', accountId).execute();
        if (roles.length > 0) {
          await trx
            .insertInto('account_roles')
            .values(roles.map((role) => ({ account_id: accountId, role })))
            .execute();
        }
        const left = await trx
          .selectFrom('accounts')
          .innerJoin('account_roles', 'account_roles.account_id', 'accounts.id')
          .select('accounts.id')
          .where('account_roles.role', '=', 'admin')
          .where('accounts.deleted_date', 'is', null)
          .limit(1)
          .executeTakeFirst();
        // Thrown inside the transaction: the change is rolled back.
        if (!left) throw new ApiError('conflict', 'last_admin');
      });
      await revokeAccount(ctx, accountId);
      return { id: accountId, roles };
    },
  );
}
