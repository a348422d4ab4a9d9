import type { PortalDb } from '../base/db.ts';
import type { HttpClient } from '../http/http-client.ts';
import { isHttpError } from '../http/http-error.ts';
import { updateRuntime } from './runtime.ts';

/** SPEC §9: notifications of the last 30 days. */
export const NOTIFICATION_DAYS = 30;

interface CountItem {
  count?: number;
}

/**
 * SPEC §7: GET {api}/api/notifications/count, the counts of its items summed, into the runtime row
 * (the header dot). A 404 means the server does not offer notifications yet: the count stays.
 */
export async function refreshNotificationCount(http: HttpClient, db: PortalDb): Promise<void> {
  let body: CountItem[] | { value?: CountItem[] };
  try {
    // Only unprocessed notifications light the dot; read ones stay listed but count no more.
    // The same window as the list: the last 30 days (SPEC §9).
    const fromDate = new Date(Date.now() - NOTIFICATION_DAYS * 24 * 3600_000).toISOString();
    body = await http.get('/api/notifications/count', {
      params: { isProcessed: false, fromDate },
      report: false,
    });
  } catch (error) {
    if (isHttpError(error) && error.status === 404) return;
    throw error;
  }
  const items = Array.isArray(body) ? body : (body?.value ?? []);
  const notificationCount = items.reduce((sum, item) => sum + (Number(item.count) || 0), 0);
  await updateRuntime(db, { notificationCount });
}
