import { HUB_EVENTS } from '../../contract/hub.ts';
import type { AppContext } from '../context.ts';
import { nowIso } from '../db/database.ts';

/** Creates a notification and tells the account's connections (SPEC §7 PortalAccountNotificationCreated). */
export async function notify(ctx: AppContext, accountId: number, entity: string, notificationType: string) {
  const row = await ctx.db
    .insertInto('notifications')
    .values({
      account_id: accountId,
      entity,
      notification_type: notificationType,
      is_processed: 0,
      created_date: nowIso(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await ctx.hub.publishToAccount(
    accountId,
    HUB_EVENTS.notificationCreated,
    { id: row.id, entity, notificationType },
    entity,
  );
}
