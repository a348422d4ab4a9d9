import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseEntityKey } from '../../contract/hub.ts';
import type { Api, AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { nowIso, type Db } from '../db/database.ts';
import { isStaff, type Principal } from '../auth/principal.ts';
import { principalOf } from '../http/guard.ts';
import { AuditQuery } from '../../contract/schemas/staff.ts';

/** What the id in a staff route's path names, by the route's first segment after /portal/staff. */
const ENTITY_OF_SEGMENT: Record<string, string> = {
  conversations: 'Conversation',
  meetings: 'Meeting',
  series: 'Series',
  accounts: 'Account',
};

export interface AuditEntry {
  accountId: number;
  action: string;
  entityType: string | null;
  entityId: number | null;
  status: number;
}

export async function recordAudit(db: Db, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      account_id: entry.accountId,
      action: entry.action.slice(0, 200),
      entity_type: entry.entityType,
      entity_id: entry.entityId,
      status: entry.status,
      created_date: nowIso(),
    })
    .execute();
}

/** The conversation or meeting a staff request was about: the `:id` of its route, if any. */
function entityOf(req: FastifyRequest): { entityType: string | null; entityId: number | null } {
  const route = req.routeOptions.url ?? '';
  const segment = /^\/portal\/staff\/([^/]+)\/:id/.exec(route)?.[1];
  const raw = (req.params as { id?: unknown } | undefined)?.id;
  const entityId = Number(raw);
  if (!segment || !Number.isInteger(entityId)) return { entityType: null, entityId: null };
  return { entityType: ENTITY_OF_SEGMENT[segment] ?? segment, entityId };
}

/**
 * Staff accountability: every staff request (read or write, allowed or refused) and every hub
 * subscription is written down with who, when, which conversation or meeting, which action and the
 * answer's status - never a message, a name or a file. An administrator reads it through
 * `GET /portal/staff/audit`; entries older than AUDIT_RETENTION_DAYS are pruned.
 */
export function auditStaffRequests(app: FastifyInstance, ctx: AppContext) {
  // Written before the answer leaves, so whoever reads the log next finds the entry there.
  app.addHook('onSend', async (req, reply, payload) => {
    const principal = req.principal;
    const route = req.routeOptions.url;
    if (!principal || !isStaff(principal) || !route) return payload;
    await recordAudit(ctx.db, {
      accountId: principal.accountId,
      action: `${req.method} ${route}`,
      ...entityOf(req),
      status: reply.statusCode,
    }).catch((error: unknown) => req.log.error({ err: error }, 'audit entry failed'));
    return payload;
  });
}

/** The administrator's reading of the audit log. */
export function registerAuditRoutes(app: Api, ctx: AppContext) {
  app.get(
    '/audit',
    {
      schema: { querystring: AuditQuery },
    },
    async (req) => {
      requireAdmin(principalOf(req));
      const f = req.query;
      let q = ctx.db.selectFrom('audit_log').selectAll();
      if (f.accountId !== undefined) q = q.where('account_id', '=', f.accountId);
      if (f.entityType !== undefined) q = q.where('entity_type', '=', f.entityType);
      if (f.entityId !== undefined) q = q.where('entity_id', '=', f.entityId);
      if (f.from) q = q.where('created_date', '>=', new Date(Date.parse(f.from) || 0).toISOString());
      if (f.to) q = q.where('created_date', '<=', new Date(Date.parse(f.to) || Date.now()).toISOString());
      const rows = await q
        .orderBy('id', 'desc')
        .limit(f.take ?? 200)
        .offset(f.skip ?? 0)
        .execute();
      return {
        value: rows.map((r) => ({
          id: r.id,
          accountId: r.account_id,
          action: r.action,
          entityType: r.entity_type,
          entityId: r.entity_id,
          status: r.status,
          createdDate: r.created_date,
        })),
      };
    },
  );
}

export function requireAdmin(principal: Principal) {
  if (!principal.roles.includes('admin')) throw new ApiError('forbidden');
}

/**
 * A staff member's hub subscription is a read too: each one allowed is written down. A refused one
 * read nothing, and is told with the others of its connection's window instead
 * (auditRefusedSubscriptions), so that a client asking for what it may not see cannot fill the log.
 */
export async function auditSubscription(db: Db, principal: Principal, entityKey: string, allowed: boolean) {
  if (!isStaff(principal) || !allowed) return;
  const entity = parseEntityKey(entityKey);
  await recordAudit(db, {
    accountId: principal.accountId,
    action: 'HUB SubscribeToEntity',
    entityType: entity?.type ?? null,
    entityId: entity?.id ?? null,
    status: 200,
  });
}

/** The action of the one row that tells how many subscriptions a connection was refused in a window. */
export const refusedSubscriptionsAction = (count: number) => `HUB SubscribeToEntity refused ${count}`;

/**
 * The subscriptions one staff connection was refused in one window (no access, over its limit, or
 * past its invocation budget: server/hub/connection.ts), as one row: how many, and the entity of
 * the first, status 403.
 */
export async function auditRefusedSubscriptions(
  db: Db,
  principal: Principal,
  refused: { count: number; firstKey: string },
) {
  if (!isStaff(principal)) return;
  const entity = parseEntityKey(refused.firstKey);
  await recordAudit(db, {
    accountId: principal.accountId,
    action: refusedSubscriptionsAction(refused.count),
    entityType: entity?.type ?? null,
    entityId: entity?.id ?? null,
    status: 403,
  });
}

export async function pruneAuditLog(db: Db, retentionDays: number, now = Date.now()): Promise<void> {
  const cutoff = new Date(now - retentionDays * 24 * 3600_000).toISOString();
  await db.deleteFrom('audit_log').where('created_date', '<', cutoff).execute();
}
