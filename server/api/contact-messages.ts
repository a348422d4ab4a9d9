import type { FastifyInstance } from 'fastify';
import type { ContactMessageWire } from '../../contract/notifications.ts';
import { CONTACTS_FEATURE_IDS } from '../../contract/profile.ts';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { principalOf } from './guard.ts';
import { anyId, featureParams, object } from './schemas.ts';

const FEATURE_IDS = new Set<string>(Object.values(CONTACTS_FEATURE_IDS));

/** SPEC §7: messages from the organisation to the child, read and deleted by their owner only. */
export function registerContactMessageRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;

  app.get('/contactmessages', async (req) => {
    const rows = await db
      .selectFrom('contact_messages')
      .selectAll()
      .where('contact_id', '=', principalOf(req).contactId)
      .where('is_active', '=', 1)
      .orderBy('message_date', 'desc')
      .execute();
    const value: ContactMessageWire[] = rows.map((r) => ({
      Id: r.id,
      IsActive: r.is_active === 1,
      Contact: r.contact_id,
      MessageDate: r.message_date,
      Subject: r.subject,
      Text: r.text,
      Thread: r.thread,
      ThreadPost: r.thread_post,
      IsRead: r.is_read === 1,
    }));
    return { value };
  });

  const update =
    (change: { is_read: number } | { is_active: number }) =>
    async (req: { params: unknown; body: unknown; principal: unknown }) => {
      if (!FEATURE_IDS.has((req.params as { featureId: string }).featureId)) throw new ApiError('not_found');
      const id = Number((req.body as { Id?: number } | undefined)?.Id);
      if (!Number.isInteger(id)) throw new ApiError('validation');
      const res = await db
        .updateTable('contact_messages')
        .set(change)
        .where('id', '=', id)
        .where('contact_id', '=', principalOf(req as never).contactId)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) throw new ApiError('not_found');
      return { success: true };
    };
  // The client sends the whole ContactMessage back (SPEC §7); only its Id is read.
  const schema = { params: featureParams, body: object({ Id: anyId }, ['Id']) };
  app.post('/features/contacts/:featureId/processmessage/', { schema }, update({ is_read: 1 }));
  app.post('/features/contacts/:featureId/deletemessage/', { schema }, update({ is_active: 0 }));
}
