import { randomUUID } from 'node:crypto';
import {
  FEEDBACK_ANSWERS,
  type FeedbackAnswer,
  type FeedbackSummary,
  type IsoWeek,
} from '../../contract/chat-feedback.ts';
import { isResolvedOrClosed } from '../../contract/conversation-state.ts';
import { AppParams, ChatFeedbackBody, ChatFeedbackTextBody } from '../../contract/schemas/conversations.ts';
import { FeedbackQuery } from '../../contract/schemas/staff.ts';
import type { Principal } from '../auth/principal.ts';
import type { Api, AppContext } from '../context.ts';
import { isUniqueViolation, type Db } from '../db/database.ts';
import { ApiError } from '../errors.ts';
import { principalOf } from '../http/guard.ts';
import { APPLICATION_ID } from '../wire-ids.ts';
import { stockholmWallClock } from './chat-limit.ts';

/**
 * 'Hur kändes chatten?' (contract/chat-feedback.ts; docs/decisions.md "Heard after the chat"). The
 * child who had an ended chat gives one answer and at most one free text for it; the server keeps a
 * count per channel, ISO week and answer and the texts with their channel and week, and only a mark
 * that the chat had its answer. Nothing stored leads from a count or a text back to a child or a chat.
 */

const DAY_MS = 86_400_000;
/** Channel 0 in the stored rows: chats without a channel. */
const NO_CHANNEL = 0;

/** The ISO week (`2026-W50`) that `at` falls in on Stockholm's calendar. */
export function isoWeekOf(at: Date): IsoWeek {
  const wall = new Date(stockholmWallClock(at));
  const day = new Date(Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate()));
  // The week's Thursday decides its year; week 1 is the one with the year's first Thursday.
  day.setUTCDate(day.getUTCDate() + 3 - ((day.getUTCDay() + 6) % 7));
  const year = day.getUTCFullYear();
  const week = 1 + Math.floor((day.getTime() - Date.UTC(year, 0, 1)) / (7 * DAY_MS));
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/** The child's own ended one-to-one chat that a counsellor was in, with its channel and week. */
async function endedChat(db: Db, principal: Principal, id: number) {
  const row = await db
    .selectFrom('conversations')
    .select(['contact_id', 'meeting_id', 'system_type', 'state', 'live_since', 'closed_date', 'channel_id'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw new ApiError('not_found');
  if (row.contact_id !== principal.contactId || row.meeting_id !== null) throw new ApiError('forbidden');
  // A mail, a chat still going, or a queue left before any counsellor came: nothing to ask about.
  if (row.system_type !== 'chat' || !isResolvedOrClosed(row) || row.live_since === null) {
    throw new ApiError('conflict');
  }
  return { channel: row.channel_id ?? NO_CHANNEL, week: isoWeekOf(new Date(row.closed_date ?? Date.now())) };
}

/**
 * Marks `part` of the chat's feedback as given and, only if this is the first time, stores it, in one
 * transaction. A repeat (the outbox trying again after a lost answer, or the same child sending twice)
 * is answered as the first was and stores nothing.
 */
async function once(
  db: Db,
  conversationId: number,
  part: 'answer' | 'text',
  store: (trx: Db) => Promise<void>,
) {
  try {
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('chat_feedback_given').values({ conversation_id: conversationId, part }).execute();
      await store(trx);
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
}

export function registerChatFeedback(app: Api, ctx: AppContext) {
  const BASE = '/features/conversations/:appId';
  const checkApp = (appId: string) => {
    if (appId !== APPLICATION_ID) throw new ApiError('not_found');
  };
  app.post(
    `${BASE}/feedback`,
    { preHandler: ctx.limits.preHandler('feedback'), schema: { params: AppParams, body: ChatFeedbackBody } },
    async (req) => {
      checkApp(req.params.appId);
      const { conversation, answer } = req.body;
      const { channel, week } = await endedChat(ctx.db, principalOf(req), conversation);
      await once(ctx.db, conversation, 'answer', (trx) =>
        trx
          .insertInto('chat_feedback_counts')
          .values({ channel_id: channel, week, answer, count: 1 })
          .onConflict((oc) =>
            oc
              .columns(['channel_id', 'week', 'answer'])
              .doUpdateSet((eb) => ({ count: eb('chat_feedback_counts.count', '+', 1) })),
          )
          .execute()
          .then(() => undefined),
      );
      return { success: true };
    },
  );
  app.post(
    `${BASE}/feedbackText`,
    {
      preHandler: ctx.limits.preHandler('feedback'),
      schema: { params: AppParams, body: ChatFeedbackTextBody },
    },
    async (req) => {
      checkApp(req.params.appId);
      const text = req.body.text.trim();
      if (text === '') throw new ApiError('validation');
      const { channel, week } = await endedChat(ctx.db, principalOf(req), req.body.conversation);
      await once(ctx.db, req.body.conversation, 'text', (trx) =>
        trx
          .insertInto('chat_feedback_texts')
          .values({ id: randomUUID(), channel_id: channel, week, text })
          .execute()
          .then(() => undefined),
      );
      return { success: true };
    },
  );
}

const channelOut = (stored: number): number | null => (stored === NO_CHANNEL ? null : stored);

/** Each channel's name by its id, for the administrator's headings. */
async function channelNames(db: Db): Promise<(stored: number) => string | null> {
  const rows = await db.selectFrom('channels').select(['id', 'name']).execute();
  const names = new Map(rows.map((r) => [r.id, r.name]));
  return (stored) => (stored === NO_CHANNEL ? null : (names.get(stored) ?? null));
}

/** The administrator's figures (GET /portal/staff/feedback): the last `weeks` ISO weeks, newest first. */
export async function feedbackSummary(db: Db, weeks: number, now = new Date()): Promise<FeedbackSummary> {
  const from = isoWeekOf(new Date(now.getTime() - (weeks - 1) * 7 * DAY_MS));
  const counts = await db
    .selectFrom('chat_feedback_counts')
    .selectAll()
    .where('week', '>=', from)
    .orderBy('week', 'desc')
    .orderBy('channel_id')
    .execute();
  const nameOf = await channelNames(db);
  const byWeek = new Map<string, FeedbackSummary['weeks'][number]>();
  for (const row of counts) {
    const key = `${row.channel_id} ${row.week}`;
    let week = byWeek.get(key);
    if (!week) {
      week = {
        channel: channelOut(row.channel_id),
        channelName: nameOf(row.channel_id),
        week: row.week,
        counts: Object.fromEntries(FEEDBACK_ANSWERS.map((a) => [a, 0])) as Record<FeedbackAnswer, number>,
      };
      byWeek.set(key, week);
    }
    if ((FEEDBACK_ANSWERS as readonly string[]).includes(row.answer)) {
      week.counts[row.answer as FeedbackAnswer] += Number(row.count);
    }
  }
  // By week, then by the random id: no order of writing.
  const texts = await db
    .selectFrom('chat_feedback_texts')
    .select(['channel_id', 'week', 'text'])
    .where('week', '>=', from)
    .orderBy('week', 'desc')
    .orderBy('id')
    .execute();
  return {
    weeks: [...byWeek.values()],
    texts: texts.map((t) => ({
      channel: channelOut(t.channel_id),
      channelName: nameOf(t.channel_id),
      week: t.week,
      text: t.text,
    })),
  };
}

/** The administrator's page of the feedback: counts and texts, never a chat or a child. */
export function registerFeedbackSummary(app: Api, ctx: AppContext) {
  app.get('/feedback', { schema: { querystring: FeedbackQuery } }, async (req) =>
    feedbackSummary(ctx.db, req.query.weeks ?? 12),
  );
}
