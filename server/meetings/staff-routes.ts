import type { FastifyRequest } from 'fastify';
import type { Static } from '@sinclair/typebox';
import multipart from '@fastify/multipart';
import {
  GROUP_CHAT_MAX_LENGTH,
  MEETING_DESCRIPTION_MAX_LENGTH,
  SUBJECT_MAX_LENGTH,
} from '../../contract/limits.ts';
import { HUB_EVENTS } from '../../contract/hub.ts';
import { UPLOAD_LIMITS } from '../../contract/limits.ts';
import type { Api, AppContext, TypeBoxProvider } from '../context.ts';
import type { Principal } from '../auth/principal.ts';
import { ApiError } from '../errors.ts';
import { nowIso } from '../db/database.ts';
import { principalOf } from '../http/guard.ts';
import { createOnce, idempotent, recordKeyOf, replayValue, type RecordKey } from '../http/idempotency.ts';
import { publishMeetingEvent } from './events.ts';
import { ownMessagesQuery, toMeeting, toMeetingMessages } from './view.ts';
import { messageById } from '../conversations/wire.ts';
import { addStaffMessage, conversationRow } from '../conversations/writes.ts';
import { conversationChanged } from '../conversations/changed.ts';
import { contentTypeOf, detectFileKind, nameForKind, safeFileName } from '../files/file-type.ts';
import { saveBlob } from '../files/file-store.ts';
import { IdParams } from '../../contract/schemas/common.ts';
import {
  AppendixBody,
  GroupChatMessageBody,
  MeetingChangesBody,
  NewMeetingBody,
} from '../../contract/schemas/staff.ts';
import { assertLeads, ledMeeting, ledSeriesIds } from './leader-access.ts';
import { CONVERSATION_STATE } from '../../contract/conversation-state.ts';
import { MEETING_STATE, isMeetingOver } from '../../contract/meeting-state.ts';

const BASE = '/meetings';
function validTimes(input: MeetingChangesBody) {
  const start = Date.parse(String(input.startDate ?? ''));
  const duration = Number(input.duration);
  if (Number.isNaN(start) || !Number.isInteger(duration) || duration < 5 || duration > 600)
    throw new ApiError('validation');
  return {
    start_date: new Date(start).toISOString(),
    end_date: new Date(start + duration * 60_000).toISOString(),
    duration,
  };
}

/** Starting opens the meeting and its group chat; until a leader writes, participants see 'Chatten börjar strax'. */
async function startMeeting(ctx: AppContext, principal: Principal, id: number) {
  const { db } = ctx;
  const meeting = await ledMeeting(ctx, principal, id);
  if (isMeetingOver(meeting)) throw new ApiError('validation');
  let conversationId = meeting.conversation_id;
  if (conversationId === null) {
    const conversation = await db
      .insertInto('conversations')
      .values(
        conversationRow({
          meeting_id: meeting.id,
          system_type: 'groupchat',
          subject: meeting.subject,
          state: CONVERSATION_STATE.InProgress,
          agent_account_id: principal.accountId,
        }),
      )
      .returning('id')
      .executeTakeFirstOrThrow();
    conversationId = conversation.id;
  }
  const row = await db
    .updateTable('meetings')
    .set({
      state: MEETING_STATE.InProgress,
      session_state: MEETING_STATE.InProgress,
      conversation_id: conversationId,
    })
    .where('id', '=', meeting.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await publishMeetingEvent(ctx, HUB_EVENTS.meetingUpdated, row);
  await conversationChanged(ctx, conversationId);
  return toMeeting(db, principal, row);
}

/** The participants' private messages and homework to the leaders, each with its sender's name. */
async function privateMessages(ctx: AppContext, principal: Principal, id: number) {
  const { db } = ctx;
  const meeting = await ledMeeting(ctx, principal, id);
  const rows = await ownMessagesQuery(db, principal, meeting.id)
    .selectAll()
    .orderBy('created_date')
    .execute();
  // The leader needs to know who wrote: participants' names are shown beside their messages.
  const senders = rows.length
    ? await db
        .selectFrom('accounts')
        .innerJoin('contacts', 'contacts.id', 'accounts.contact_id')
        .select(['accounts.id', 'contacts.name'])
        .where('accounts.id', 'in', [...new Set(rows.map((r) => r.account_id))])
        .execute()
    : [];
  const messages = await toMeetingMessages(db, rows);
  return messages.map((m, i) => ({
    ...m,
    senderName: senders.find((s) => s.id === rows[i]?.account_id)?.name ?? '',
  }));
}

/** A file for the meeting, stored under the name of its real type (docs/security.md: uploads). */
async function addAppendix(
  ctx: AppContext,
  principal: Principal,
  id: number,
  body: AppendixBody,
  record: RecordKey | undefined,
) {
  const { db } = ctx;
  const meeting = await ledMeeting(ctx, principal, id);
  const content = body.file;
  if (!(content instanceof Uint8Array)) throw new ApiError('validation');
  const name = safeFileName(body.name ?? 'bilaga');
  const kind = detectFileKind(content, name);
  if (!kind) throw new ApiError('unsupported_type');
  const row = await createOnce(db, record, async (trx) => {
    const blobId = await saveBlob(trx, principal.accountId, content);
    const count = await trx
      .selectFrom('appendices')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('meeting_id', '=', meeting.id)
      .executeTakeFirstOrThrow();
    return trx
      .insertInto('appendices')
      .values({
        meeting_id: meeting.id,
        name: nameForKind(name, kind),
        type: kind,
        content_type: contentTypeOf(kind),
        blob_id: blobId,
        is_active: 1,
        order_index: Number(count.n),
        created_by: principal.accountId,
        created_date: nowIso(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  });
  await publishMeetingEvent(ctx, HUB_EVENTS.meetingUpdated, meeting);
  return row.id;
}

/** A new meeting in a series the leader leads, told to the series' members. */
async function createMeeting(
  ctx: AppContext,
  principal: Principal,
  input: Static<typeof NewMeetingBody>,
  record: RecordKey | undefined,
) {
  const { db } = ctx;
  const seriesId = input.seriesId;
  await assertLeads(ctx, principal, seriesId);
  const subject = input.subject.trim();
  if (!subject || subject.length > 200) throw new ApiError('validation');
  const row = await createOnce(db, record, (trx) =>
    trx
      .insertInto('meetings')
      .values({
        series_id: seriesId,
        subject,
        description: (input.description ?? '').slice(0, MEETING_DESCRIPTION_MAX_LENGTH),
        description_content_type: 'text/plain',
        ...validTimes(input),
        state: MEETING_STATE.NotStarted,
        session_state: MEETING_STATE.NotStarted,
        meeting_type: 'Meeting',
        conversation_id: null,
        is_active: 1,
      })
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
  await publishMeetingEvent(ctx, HUB_EVENTS.meetingCreated, row);
  return toMeeting(db, principal, row);
}

/** New subject, description or time; told to the series' members. */
async function changeMeeting(ctx: AppContext, principal: Principal, id: number, input: MeetingChangesBody) {
  const { db } = ctx;
  const meeting = await ledMeeting(ctx, principal, id);
  const changes = {
    ...(input.subject !== undefined
      ? { subject: String(input.subject).trim().slice(0, SUBJECT_MAX_LENGTH) }
      : {}),
    ...(input.description !== undefined
      ? { description: String(input.description).slice(0, MEETING_DESCRIPTION_MAX_LENGTH) }
      : {}),
    ...(input.startDate !== undefined ? validTimes({ duration: meeting.duration, ...input }) : {}),
  };
  if (changes.subject === '') throw new ApiError('validation');
  const row = await db
    .updateTable('meetings')
    .set(changes)
    .where('id', '=', meeting.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await publishMeetingEvent(ctx, HUB_EVENTS.meetingUpdated, row);
  return toMeeting(db, principal, row);
}

/** A leader's message in the running group chat (SPEC §5: at most 700 characters). */
async function writeToGroupChat(
  ctx: AppContext,
  principal: Principal,
  id: number,
  text: string,
  record: RecordKey | undefined,
) {
  const meeting = await ledMeeting(ctx, principal, id);
  const content = text.trim();
  if (!content || content.length > GROUP_CHAT_MAX_LENGTH) throw new ApiError('validation');
  if (meeting.conversation_id === null) throw new ApiError('validation', 'the group chat has not started');
  const message = await addStaffMessage(ctx, principal, meeting.conversation_id, content, record);
  await conversationChanged(ctx, meeting.conversation_id);
  return message;
}

/**
 * Ending completes the meeting and resolves its group chat. Its end becomes when it really ended
 * (early or late), so that 'Avslutad: …' tells the truth; one ended before its start keeps its plan.
 */
async function endMeeting(ctx: AppContext, principal: Principal, id: number) {
  const { db } = ctx;
  const meeting = await ledMeeting(ctx, principal, id);
  const now = nowIso();
  const endDate = Date.parse(now) > Date.parse(meeting.start_date) ? now : meeting.end_date;
  if (meeting.conversation_id !== null) {
    await db
      .updateTable('conversations')
      .set({ state: CONVERSATION_STATE.Resolved, closed_date: now })
      .where('id', '=', meeting.conversation_id)
      .execute();
  }
  const row = await db
    .updateTable('meetings')
    .set({ state: MEETING_STATE.Completed, session_state: MEETING_STATE.Completed, end_date: endDate })
    .where('id', '=', meeting.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await publishMeetingEvent(ctx, HUB_EVENTS.meetingUpdated, row);
  if (meeting.conversation_id !== null) await conversationChanged(ctx, meeting.conversation_id);
  return toMeeting(db, principal, row);
}

/** The group leader's side of meetings (ARCHITECTURE.md staff API). */
export async function registerStaffMeetingRoutes(app: Api, ctx: AppContext) {
  const { db } = ctx;

  app.get(BASE, async (req) => {
    const principal = principalOf(req);
    if (!principal.roles.includes('group_leader')) throw new ApiError('forbidden');
    const led = await ledSeriesIds(ctx, principal.accountId);
    if (led.length === 0) return { value: [] };
    // A deleted meeting disappears from every list, the leader's too.
    const rows = await db
      .selectFrom('meetings')
      .selectAll()
      .where('series_id', 'in', led)
      .where('deleted_date', 'is', null)
      .orderBy('start_date')
      .execute();
    return { value: await Promise.all(rows.map((m) => toMeeting(db, principal, m))) };
  });

  const replayMeeting = async (id: number | null, req: FastifyRequest) => {
    const row = await db
      .selectFrom('meetings')
      .selectAll()
      .where('id', '=', id ?? -1)
      .executeTakeFirst();
    return row ? toMeeting(db, principalOf(req), row) : null;
  };
  app.post(
    BASE,
    {
      preHandler: [idempotent(ctx, replayMeeting), ctx.limits.preHandler('staffCreate')],
      schema: { body: NewMeetingBody },
    },
    async (req, reply) =>
      reply.code(201).send(await createMeeting(ctx, principalOf(req), req.body, recordKeyOf(req))),
  );

  app.put(`${BASE}/:id`, { schema: { params: IdParams, body: MeetingChangesBody } }, async (req) =>
    changeMeeting(ctx, principalOf(req), req.params.id, req.body),
  );

  app.post(`${BASE}/:id/cancel`, { schema: { params: IdParams } }, async (req) => {
    const meeting = await ledMeeting(ctx, principalOf(req), req.params.id);
    const row = await db
      .updateTable('meetings')
      .set({ state: MEETING_STATE.Cancelled, session_state: MEETING_STATE.Cancelled, is_active: 0 })
      .where('id', '=', meeting.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await publishMeetingEvent(ctx, HUB_EVENTS.meetingUpdated, row);
    return { success: true };
  });

  app.delete(`${BASE}/:id`, { schema: { params: IdParams } }, async (req) => {
    const meeting = await ledMeeting(ctx, principalOf(req), req.params.id);
    await db
      .updateTable('meetings')
      .set({
        is_active: 0,
        state: MEETING_STATE.Cancelled,
        session_state: MEETING_STATE.Cancelled,
        deleted_date: nowIso(),
      })
      .where('id', '=', meeting.id)
      .execute();
    await publishMeetingEvent(ctx, HUB_EVENTS.meetingDeleted, meeting);
    return { success: true };
  });

  app.post(`${BASE}/:id/start`, { schema: { params: IdParams } }, async (req) =>
    startMeeting(ctx, principalOf(req), req.params.id),
  );

  app.post(
    `${BASE}/:id/messages`,
    {
      preHandler: [idempotent(ctx, (id) => messageById(db, id)), ctx.limits.preHandler('staffMessage')],
      schema: { params: IdParams, body: GroupChatMessageBody },
    },
    async (req, reply) =>
      reply
        .code(201)
        .send(
          await writeToGroupChat(ctx, principalOf(req), req.params.id, req.body.content, recordKeyOf(req)),
        ),
  );

  app.post(`${BASE}/:id/end`, { schema: { params: IdParams } }, async (req) =>
    endMeeting(ctx, principalOf(req), req.params.id),
  );

  app.get(`${BASE}/:id/private-messages`, { schema: { params: IdParams } }, async (req) => ({
    value: await privateMessages(ctx, principalOf(req), req.params.id),
  }));

  await app.register(async (scope) => {
    await scope.register(multipart, {
      attachFieldsToBody: 'keyValues',
      limits: { fileSize: UPLOAD_LIMITS.maxBytes, files: 1, fields: 5 },
    });
    scope.withTypeProvider<TypeBoxProvider>().post(
      `${BASE}/:id/appendices`,
      {
        preHandler: [idempotent(ctx, replayValue), ctx.limits.preHandler('staffUpload')],
        schema: { params: IdParams, body: AppendixBody },
      },
      async (req, reply) =>
        reply.code(201).send({
          value: await addAppendix(ctx, principalOf(req), req.params.id, req.body, recordKeyOf(req)),
        }),
    );
  });
}
