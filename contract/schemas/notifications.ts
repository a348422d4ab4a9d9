import { Type, type Static } from '@sinclair/typebox';
import { AnyId, Body, DateText, Int, Query, StringEnum, Text } from './common.ts';

/** SPEC §7 notifications: filters, and the calls that mark or delete one. */

const filters = {
  isProcessed: Type.Optional(StringEnum(['true', 'false', ''] as const)),
  notificationType: Type.Optional(Text(100)),
  entity: Type.Optional(Text(100)),
  fromDate: Type.Optional(DateText),
};

/** GET {api}/api/notifications/count */
export const NotificationFilterQuery = Query(filters);
export type NotificationFilterQuery = Static<typeof NotificationFilterQuery>;

/** GET {api}/api/notifications */
export const NotificationListQuery = Query({ ...filters, take: Type.Optional(Int(0, 1_000_000)) });

/** POST {api}/api/notifications/process: one notification by id, or all of an entity. */
export const ProcessNotificationBody = Body({
  id: Type.Optional(AnyId),
  entity: Type.Optional(Text(100)),
  notificationType: Type.Optional(Text(100)),
});

/** POST {api}/api/notifications/delete */
export const DeleteNotificationBody = Body({ NotificationId: AnyId });
