import type { NotificationWire } from '../../contract/notifications.ts';
import type { Api, AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { principalOf } from '../http/guard.ts';
import {
  DeleteNotificationBody,
  NotificationFilterQuery,
  NotificationListQuery,
  ProcessNotificationBody,
} from '../../contract/schemas/notifications.ts';

/** SPEC §7 Contact messages and notifications: the notification calls. */
export function registerNotificationRoutes(app: Api, ctx: AppContext) {
  const { db } = ctx;

  const filtered = (accountId: number, f: NotificationFilterQuery) => {
    const from = Date.parse(String(f.fromDate ?? ''));
    let q = db
      .selectFrom('notifications')
      .where('account_id', '=', accountId)
      .where(
        'created_date',
        '>=',
        new Date(Number.isNaN(from) ? Date.now() - 30 * 24 * 3600_000 : from).toISOString(),
      );
    if (f.isProcessed === 'true' || f.isProcessed === 'false')
      q = q.where('is_processed', '=', f.isProcessed === 'true' ? 1 : 0);
    if (f.notificationType) q = q.where('notification_type', '=', f.notificationType);
    if (f.entity) q = q.where('entity', '=', f.entity);
    return q;
  };

  app.get('/api/notifications', { schema: { querystring: NotificationListQuery } }, async (req) => {
    const f = req.query;
    const take = Math.min(Math.max(f.take || 1000, 1), 1000);
    const rows = await filtered(principalOf(req).accountId, f)
      .selectAll()
      .orderBy('created_date', 'desc')
      .limit(take)
      .execute();
    return {
      value: rows.map((r): NotificationWire => ({
        id: r.id,
        entity: r.entity,
        notificationType: r.notification_type,
        isProcessed: r.is_processed === 1,
        createdDate: r.created_date,
      })),
    };
  });

  app.get('/api/notifications/count', { schema: { querystring: NotificationFilterQuery } }, async (req) => {
    const rows = await filtered(principalOf(req).accountId, req.query)
      .select(['notification_type', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('notification_type')
      .execute();
    return { value: rows.map((r) => ({ notificationType: r.notification_type, count: Number(r.n) })) };
  });

  app.post(
    '/api/notifications/process',
    {
      schema: { body: ProcessNotificationBody },
    },
    async (req) => {
      const body = req.body;
      let q = db
        .updateTable('notifications')
        .set({ is_processed: 1 })
        .where('account_id', '=', principalOf(req).accountId);
      if (body.id !== undefined) q = q.where('id', '=', body.id);
      else if (body.entity) q = q.where('entity', '=', body.entity);
      else throw new ApiError('validation');
      if (body.notificationType) q = q.where('notification_type', '=', body.notificationType);
      const res = await q.executeTakeFirst();
      // An id that is not one of the caller's notifications is unknown to them, as for contact messages.
      if (body.id !== undefined && Number(res.numUpdatedRows) === 0) throw new ApiError('not_found');
      return { success: true };
    },
  );

  app.post('/api/notifications/delete', { schema: { body: DeleteNotificationBody } }, async (req) => {
    const id = req.body.NotificationId;
    const res = await db
      .deleteFrom('notifications')
      .where('id', '=', id)
      .where('account_id', '=', principalOf(req).accountId)
      .executeTakeFirst();
    if (Number(res.numDeletedRows) === 0) throw new ApiError('not_found');
    return { success: true };
  });
}
