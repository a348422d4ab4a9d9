import type { AppContext } from '../context.ts';
import { nowIso } from '../db/database.ts';
import { pruneIdempotencyKeys } from '../http/idempotency.ts';
import { pruneAuditLog } from '../staff/audit-log.ts';
import { prunePushBursts, prunePushSubscriptions } from '../push/push-service.ts';

const DAY = 24 * 3600_000;
/** Client error logs help for a month; notifications are listed for 30 days (SPEC §7), kept 90. */
export const RETENTION = { clientLogsDays: 30, notificationsDays: 90 } as const;

/**
 * Everything that grows with traffic is pruned here, on a timer in every process (each step is an
 * idempotent delete, so processes running it together do no harm): idempotency records (48 h),
 * login counters and known-good addresses, rate-limit windows, revoked and expired tokens and the
 * push subscriptions of logins that ended, push burst records, the staff audit log, client logs and
 * old notifications; and the signing key is rotated when due. One failing step does not stop the
 * others.
 */
export async function runMaintenance(ctx: AppContext, now = Date.now()): Promise<string[]> {
  const { db } = ctx;
  const steps: Array<[string, () => Promise<unknown>]> = [
    ['idempotency', () => pruneIdempotencyKeys(ctx)],
    ['login attempts', () => ctx.throttle.prune(now)],
    ['rate limits', () => ctx.limits.prune(now)],
    [
      'revoked access tokens',
      () => db.deleteFrom('revoked_access_tokens').where('expires_at', '<', nowIso()).execute(),
    ],
    [
      'refresh tokens',
      () => db.deleteFrom('refresh_tokens').where('family_expires_at', '<', nowIso()).execute(),
    ],
    // After the refresh tokens: a login that ended without a logout takes its push subscription along.
    ['push subscriptions', () => prunePushSubscriptions(db, now)],
    ['push bursts', () => prunePushBursts(db, now)],
    ['audit log', () => pruneAuditLog(db, ctx.config.auditRetentionDays, now)],
    [
      'client logs',
      () =>
        db
          .deleteFrom('client_logs')
          .where('created_date', '<', new Date(now - RETENTION.clientLogsDays * DAY).toISOString())
          .execute(),
    ],
    [
      'notifications',
      () =>
        db
          .deleteFrom('notifications')
          .where('created_date', '<', new Date(now - RETENTION.notificationsDays * DAY).toISOString())
          .execute(),
    ],
    ['signing keys', () => ctx.keys.maintain(ctx.config.signingKeyMaxAgeDays)],
  ];
  const failed: string[] = [];
  for (const [name, step] of steps) {
    try {
      await step();
    } catch (error) {
      failed.push(name);
      console.error(`maintenance: ${name} failed:`, error instanceof Error ? error.message : error);
    }
  }
  return failed;
}
