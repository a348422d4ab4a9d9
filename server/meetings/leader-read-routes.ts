import type { Api, AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { principalOf } from '../http/guard.ts';
import { listMessages } from '../conversations/wire.ts';
import { listAppendices } from './view.ts';
import { readBlob, sendAttachment } from '../files/file-store.ts';
import { ledMeeting } from './leader-access.ts';
import { IdParams } from '../../contract/schemas/common.ts';
import { MeetingFileParams } from '../../contract/schemas/staff.ts';

const BASE = '/meetings';

/** What a group leader reads of their meetings: the group chat and the participants' homework files. */
export function registerGroupLeaderMeetingReads(app: Api, ctx: AppContext) {
  const { db } = ctx;

  // Before the chat is started there is no conversation, so the list is simply empty.
  app.get(`${BASE}/:id/messages`, { schema: { params: IdParams } }, async (req) => {
    const meeting = await ledMeeting(ctx, principalOf(req), req.params.id);
    if (meeting.conversation_id === null) return { value: [], conversationId: null };
    return {
      value: await listMessages(db, meeting.conversation_id),
      conversationId: meeting.conversation_id,
    };
  });

  app.get(`${BASE}/:id/appendices`, { schema: { params: IdParams } }, async (req) => {
    const meeting = await ledMeeting(ctx, principalOf(req), req.params.id);
    return { value: await listAppendices(db, meeting.id) };
  });

  app.get(
    `${BASE}/:id/files/:messageId/:fileName`,
    { schema: { params: MeetingFileParams } },
    async (req, reply) => {
      const params = req.params;
      const meeting = await ledMeeting(ctx, principalOf(req), params.id);
      const message = await db
        .selectFrom('meeting_messages')
        .select('id')
        .where('id', '=', params.messageId)
        .where('meeting_id', '=', meeting.id)
        .where('deleted_date', 'is', null)
        .executeTakeFirst();
      if (!message) throw new ApiError('not_found');
      const file = await db
        .selectFrom('meeting_message_files')
        .selectAll()
        .where('meeting_message_id', '=', message.id)
        .where('name', '=', params.fileName)
        .executeTakeFirst();
      const data = file ? await readBlob(db, file.blob_id) : null;
      if (!file || !data) throw new ApiError('not_found');
      return sendAttachment(reply, file.name, file.content_type, data);
    },
  );
}
