import type { FastifyReply } from 'fastify';
import type { Static } from '@sinclair/typebox';
import multipart from '@fastify/multipart';
import { MESSAGE_TYPE } from '../../contract/index.ts';
import { PRIVATE_MESSAGE_MAX_LENGTH, UPLOAD_LIMITS, SUBJECT_MAX_LENGTH } from '../../contract/limits.ts';
import { isMeetingOver } from '../../contract/meeting-state.ts';
import { FeatureParams } from '../../contract/schemas/profile.ts';
import {
  AppendicesQuery,
  DeleteMeetingMessageQuery,
  MeetingAppendixQuery,
  MeetingMessageBody,
  MeetingMessageFileQuery,
  MeetingMessagesQuery,
  MeetingQuery,
  MeetingsQuery,
} from '../../contract/schemas/meetings.ts';
import type { Api, AppContext, TypeBoxProvider } from '../context.ts';
import { ApiError } from '../errors.ts';
import { nowIso } from '../db/database.ts';
import { isStaff, type Principal } from '../auth/principal.ts';
import { contentTypeOf, detectFileKind, nameForKind, safeFileName } from '../files/file-type.ts';
import { deleteMeetingMessages, readBlob, saveBlob, sendAttachment } from '../files/file-store.ts';
import { principalOf } from '../http/guard.ts';
import { idempotent, recordKeyOf, replayValue, type RecordKey } from '../http/idempotency.ts';
import { MEETINGS_FEATURE_ID } from '../wire-ids.ts';
import { meetingForUser, ownMessagesQuery, listAppendices, toMeeting, toMeetingMessages } from './view.ts';
import { visibleSeriesIds } from '../auth/entity-access.ts';

const BASE = '/features/meetings/:featureId';

function checkFeature(featureId: string) {
  if (featureId !== MEETINGS_FEATURE_ID) throw new ApiError('not_found');
}

/** The meetings of the caller's series, in start order; one meeting when asked for. */
async function listMeetings(ctx: AppContext, principal: Principal, only: number | undefined) {
  const series = await visibleSeriesIds(ctx.db, principal.accountId);
  if (series.length === 0) return [];
  let query = ctx.db
    .selectFrom('meetings')
    .selectAll()
    .where('series_id', 'in', series)
    .where('deleted_date', 'is', null)
    .orderBy('start_date', 'asc');
  if (only !== undefined) query = query.where('id', '=', only);
  const rows = await query.execute();
  return Promise.all(rows.map((m) => toMeeting(ctx.db, principal, m)));
}

/** The caller's own private messages to the leaders (homework, questions) in one meeting. */
async function ownMessages(
  ctx: AppContext,
  principal: Principal,
  query: Static<typeof MeetingMessagesQuery>,
) {
  const meeting = await meetingForUser(ctx.db, principal, query.meetingId);
  const take = Math.min(Math.max(query.take || 1000, 1), 1000);
  const skip = Math.max(query.skip || 0, 0);
  let rows = ownMessagesQuery(ctx.db, principal, meeting.id)
    .selectAll()
    .orderBy('created_date', 'asc')
    .orderBy('id', 'asc');
  if (query.type !== undefined) rows = rows.where('message_type', '=', query.type);
  return toMeetingMessages(ctx.db, await rows.limit(take).offset(skip).execute());
}

/** A private message is deleted by its sender only, with its files. */
async function deleteOwnMessage(ctx: AppContext, principal: Principal, id: number) {
  const row = await ctx.db
    .selectFrom('meeting_messages')
    .selectAll()
    .where('id', '=', id)
    .where('deleted_date', 'is', null)
    .executeTakeFirst();
  if (!row) throw new ApiError('not_found');
  await meetingForUser(ctx.db, principal, row.meeting_id);
  if (row.account_id !== principal.accountId) throw new ApiError('forbidden');
  await ctx.db.transaction().execute((trx) => deleteMeetingMessages(trx, [id]));
}

async function sendAppendix(
  ctx: AppContext,
  principal: Principal,
  query: Static<typeof MeetingAppendixQuery>,
  reply: FastifyReply,
) {
  const meeting = await meetingForUser(ctx.db, principal, query.MeetingId);
  const row = await ctx.db
    .selectFrom('appendices')
    .selectAll()
    .where('id', '=', query.AppendixId)
    .where('meeting_id', '=', meeting.id)
    .where('is_active', '=', 1)
    .executeTakeFirst();
  const data = row ? await readBlob(ctx.db, row.blob_id) : null;
  if (!row || !data) throw new ApiError('not_found');
  return sendAttachment(reply, row.name, row.content_type, data);
}

async function sendMessageFile(
  ctx: AppContext,
  principal: Principal,
  query: Static<typeof MeetingMessageFileQuery>,
  reply: FastifyReply,
) {
  const meeting = await meetingForUser(ctx.db, principal, query.meetingId);
  const message = await ctx.db
    .selectFrom('meeting_messages')
    .selectAll()
    .where('id', '=', query.meetingMessageId)
    .where('meeting_id', '=', meeting.id)
    .where('deleted_date', 'is', null)
    .executeTakeFirst();
  if (!message) throw new ApiError('not_found');
  // Homework is private between its sender and the group leaders.
  if (message.account_id !== principal.accountId && !isStaff(principal)) throw new ApiError('forbidden');
  const file = await ctx.db
    .selectFrom('meeting_message_files')
    .selectAll()
    .where('meeting_message_id', '=', message.id)
    .where('name', '=', query.fileName)
    .executeTakeFirst();
  const data = file ? await readBlob(ctx.db, file.blob_id) : null;
  if (!file || !data) throw new ApiError('not_found');
  return sendAttachment(reply, file.name, file.content_type, data);
}

/** The one file of a private message, stored under the name of its real type (docs/security.md: uploads). */
function attachedFile(body: Static<typeof MeetingMessageBody>) {
  const content = body.DocumentContent;
  if (!(content instanceof Uint8Array)) return null;
  const name = safeFileName(body.DocumentName ?? 'fil');
  const kind = detectFileKind(content, name);
  if (!kind) throw new ApiError('unsupported_type');
  return { name: nameForKind(name, kind), contentType: contentTypeOf(kind), data: content };
}

/** A private message (text, a file or both) to the meeting's leaders; answers its id. */
async function sendMeetingMessage(
  ctx: AppContext,
  principal: Principal,
  body: Static<typeof MeetingMessageBody>,
  record: RecordKey | undefined,
) {
  const meeting = await meetingForUser(ctx.db, principal, body.MeetingRuid);
  if (isMeetingOver(meeting)) throw new ApiError('forbidden');
  const text = (body.Text ?? '').trim();
  const hasFile = body.DocumentContent instanceof Uint8Array;
  if (!hasFile && text === '') throw new ApiError('validation');
  if (text.length > PRIVATE_MESSAGE_MAX_LENGTH) throw new ApiError('validation');
  const file = attachedFile(body);
  const messageType = body.MessageType === MESSAGE_TYPE.Mail ? MESSAGE_TYPE.Mail : MESSAGE_TYPE.Message;
  return ctx.db.transaction().execute(async (trx) => {
    const message = await trx
      .insertInto('meeting_messages')
      .values({
        meeting_id: meeting.id,
        account_id: principal.accountId,
        subject: (body.Subject ?? '').slice(0, SUBJECT_MAX_LENGTH),
        text,
        message_type: messageType,
        sender_type: isStaff(principal) ? 'Leader' : 'Participant',
        created_date: nowIso(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (file) {
      const blobId = await saveBlob(trx, principal.accountId, file.data);
      await trx
        .insertInto('meeting_message_files')
        .values({
          meeting_message_id: message.id,
          name: file.name,
          content_type: file.contentType,
          blob_id: blobId,
        })
        .execute();
    }
    await record?.(trx, message.id);
    return message.id;
  });
}

/** SPEC §7 Meetings: what a participant (or a group leader) reads and sends about meetings. */
export async function registerMeetingRoutes(app: Api, ctx: AppContext) {
  const { db } = ctx;

  app.get(
    `${BASE}/meetings`,
    { schema: { params: FeatureParams, querystring: MeetingsQuery } },
    async (req) => {
      checkFeature(req.params.featureId);
      return { value: await listMeetings(ctx, principalOf(req), req.query.meetingId) };
    },
  );

  app.get(
    `${BASE}/meeting`,
    { schema: { params: FeatureParams, querystring: MeetingQuery } },
    async (req) => {
      checkFeature(req.params.featureId);
      const principal = principalOf(req);
      return toMeeting(db, principal, await meetingForUser(db, principal, req.query.meetingId));
    },
  );

  app.get(
    `${BASE}/appendices`,
    { schema: { params: FeatureParams, querystring: AppendicesQuery } },
    async (req) => {
      checkFeature(req.params.featureId);
      const meeting = await meetingForUser(db, principalOf(req), req.query.MeetingId);
      return { value: await listAppendices(db, meeting.id) };
    },
  );

  app.get(
    `${BASE}/meetingmessages`,
    { schema: { params: FeatureParams, querystring: MeetingMessagesQuery } },
    async (req) => {
      checkFeature(req.params.featureId);
      return { value: await ownMessages(ctx, principalOf(req), req.query) };
    },
  );

  app.delete(
    `${BASE}/meetingmessage`,
    { schema: { params: FeatureParams, querystring: DeleteMeetingMessageQuery } },
    async (req) => {
      checkFeature(req.params.featureId);
      await deleteOwnMessage(ctx, principalOf(req), req.query.meetingMessageId);
      return { success: true };
    },
  );

  app.get('/meetingappendix', { schema: { querystring: MeetingAppendixQuery } }, async (req, reply) =>
    sendAppendix(ctx, principalOf(req), req.query, reply),
  );

  app.get('/meetingmessagefile', { schema: { querystring: MeetingMessageFileQuery } }, async (req, reply) =>
    sendMessageFile(ctx, principalOf(req), req.query, reply),
  );

  await app.register(async (scope) => {
    // Fields and the one file arrive in req.body; the size limit is enforced while streaming.
    await scope.register(multipart, {
      attachFieldsToBody: 'keyValues',
      limits: { fileSize: UPLOAD_LIMITS.maxBytes, files: 1, fields: 10, fieldSize: 64 * 1024 },
    });
    scope.withTypeProvider<TypeBoxProvider>().post(
      `${BASE}/meetingmessage`,
      {
        preHandler: [idempotent(ctx, replayValue), ctx.limits.preHandler('meetingMessage')],
        schema: { params: FeatureParams, body: MeetingMessageBody },
      },
      async (req) => {
        checkFeature(req.params.featureId);
        return { value: await sendMeetingMessage(ctx, principalOf(req), req.body, recordKeyOf(req, 200)) };
      },
    );
  });
}
