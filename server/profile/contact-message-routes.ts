import type { ContactMessageWire } from '../../contract/notifications.ts';
import { CONTACTS_FEATURE_IDS } from '../../contract/profile.ts';
import type { Api, AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { principalOf } from '../http/guard.ts';
import { ContactMessageRefBody, FeatureParams } from '../../contract/schemas/profile.ts';

const FEATURE_IDS = new Set<string>(Object.values(CONTACTS_FEATURE_IDS));

/** SPEC §7: messages from the organisation to the child, read and deleted by their owner only. */
export function registerContactMessageRoutes(app: Api, ctx: AppContext) {
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

  const update = async (
    contactId: number,
    id: number,
    change: { is_read: number } | { is_active: number },
  ) => {
    const res = await db
      .updateTable('contact_messages')
      .set(change)
      .where('id', '=', id)
      .where('contact_id', '=', contactId)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw new ApiError('not_found');
    return { success: true };
  };
  // The client sends the whole ContactMessage back (SPEC §7); only its Id is read.
  const changes = { processmessage: { is_read: 1 }, deletemessage: { is_active: 0 } } as const;
  for (const [action, change] of Object.entries(changes)) {
    app.post(
      `/features/contacts/:featureId/${action}/`,
      { schema: { params: FeatureParams, body: ContactMessageRefBody } },
      async (req) => {
        if (!FEATURE_IDS.has(req.params.featureId)) throw new ApiError('not_found');
        return update(principalOf(req).contactId, req.body.Id, change);
      },
    );
  }
}
