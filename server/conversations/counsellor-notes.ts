import type { CounsellorNote } from '../../contract/counsellor-notes.ts';
import { COUNSELLOR_NOTES_SHOWN } from '../../contract/limits.ts';
import { IdParams } from '../../contract/schemas/common.ts';
import { CounsellorNoteBody } from '../../contract/schemas/staff.ts';
import type { Principal } from '../auth/principal.ts';
import type { Api, AppContext } from '../context.ts';
import { nowIso } from '../db/database.ts';
import { ApiError } from '../errors.ts';
import { idempotent, recordKeyOf, type RecordKey } from '../http/idempotency.ts';
import { counsellorMaySee } from '../auth/entity-access.ts';
import { counsellorOf, oneToOne, requireOwn } from './held.ts';

/**
 * Notes for the next counsellor (docs/decisions.md, "Notes for the next counsellor"): a counsellor
 * keeps a short note on a chat or mail they accepted, and whoever accepts the same child's next one
 * reads the last ones. Staff routes only (every call audit-logged with the rest); no child's answer
 * or hub frame carries them, and they are erased with the child's account.
 */
export function registerCounsellorNotes(app: Api, ctx: AppContext) {
  app.get('/conversations/:id/notes', { schema: { params: IdParams } }, async (req) => ({
    value: await notesOf(ctx, counsellorOf(req), req.params.id),
  }));
  app.post(
    '/conversations/:id/notes',
    {
      preHandler: [
        idempotent(ctx, (id) => (id === null ? Promise.resolve(null) : noteById(ctx, id))),
        ctx.limits.preHandler('staffCreate'),
      ],
      schema: { params: IdParams, body: CounsellorNoteBody },
    },
    async (req, reply) =>
      reply
        .code(201)
        .send(await writeNote(ctx, counsellorOf(req), req.params.id, req.body.content, recordKeyOf(req))),
  );
}

/**
 * The conversation's child: to write, the counsellor holds the conversation; to read, they hold it
 * or may take it (a chat or mail waiting in the queue, which they read before answering, as its
 * messages).
 */
async function childOf(
  ctx: AppContext,
  principal: Principal,
  conversationId: number,
  use: 'read' | 'write',
): Promise<number> {
  const row = await oneToOne(ctx, conversationId);
  if (use === 'write') requireOwn(row, principal.accountId);
  else if (!counsellorMaySee(row, principal.accountId)) throw new ApiError('forbidden');
  // An erased child's conversations keep no contact: there is nobody to keep a note about.
  if (row.contact_id === null) throw new ApiError('not_found');
  return row.contact_id;
}

async function notesOf(ctx: AppContext, principal: Principal, conversationId: number) {
  const contactId = await childOf(ctx, principal, conversationId, 'read');
  const rows = await noteRows(ctx)
    .where('n.contact_id', '=', contactId)
    .orderBy('n.created_date', 'desc')
    .orderBy('n.id', 'desc')
    .limit(COUNSELLOR_NOTES_SHOWN)
    .execute();
  return rows.map(toNote);
}

async function writeNote(
  ctx: AppContext,
  principal: Principal,
  conversationId: number,
  text: string,
  record: RecordKey | undefined,
): Promise<CounsellorNote> {
  const contactId = await childOf(ctx, principal, conversationId, 'write');
  const trimmed = text.trim();
  if (!trimmed) throw new ApiError('validation');
  const id = await ctx.db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('counsellor_notes')
      .values({
        contact_id: contactId,
        conversation_id: conversationId,
        author_account_id: principal.accountId,
        text: trimmed,
        created_date: nowIso(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await record?.(trx, inserted.id);
    return inserted.id;
  });
  const note = await noteById(ctx, id);
  if (!note) throw new ApiError('internal');
  return note;
}

function noteRows(ctx: AppContext) {
  return ctx.db
    .selectFrom('counsellor_notes as n')
    .innerJoin('accounts as a', 'a.id', 'n.author_account_id')
    .innerJoin('contacts as c', 'c.id', 'a.contact_id')
    .select(['n.id', 'n.text', 'n.created_date', 'n.conversation_id', 'c.name as author_name']);
}

async function noteById(ctx: AppContext, id: number): Promise<CounsellorNote | null> {
  const row = await noteRows(ctx).where('n.id', '=', id).executeTakeFirst();
  return row ? toNote(row) : null;
}

function toNote(row: {
  id: number;
  text: string;
  created_date: string;
  conversation_id: number;
  author_name: string;
}): CounsellorNote {
  return {
    id: row.id,
    text: row.text,
    createdDate: row.created_date,
    authorName: row.author_name,
    conversationId: row.conversation_id,
  };
}
