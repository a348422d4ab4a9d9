import type { FastifyReply } from 'fastify';
import type { Db } from '../db/database.ts';
import { UPLOAD_LIMITS } from '../../contract/limits.ts';
import { ApiError } from '../errors.ts';
import { nowIso } from '../db/database.ts';

/** Bytes an account has stored, for the per-user quota. */
export async function storedBytes(db: Db, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('account_storage')
    .select('used_bytes')
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return Number(row?.used_bytes ?? 0);
}

/**
 * Stores a file within the owner's quota. The quota is taken in one conditional update of the
 * owner's running total, so parallel uploads cannot each see room that only one of them has. Call
 * inside the transaction that records what the file belongs to, so a failure gives the room back.
 */
export async function saveBlob(db: Db, accountId: number, content: Uint8Array): Promise<number> {
  if (content.length > UPLOAD_LIMITS.maxBytes) throw new ApiError('payload_too_large');
  await db
    .insertInto('account_storage')
    .values({ account_id: accountId, used_bytes: 0 })
    .onConflict((oc) => oc.column('account_id').doNothing())
    .execute();
  const taken = await db
    .updateTable('account_storage')
    .set((eb) => ({ used_bytes: eb('used_bytes', '+', content.length) }))
    .where('account_id', '=', accountId)
    .where((eb) => eb(eb('used_bytes', '+', content.length), '<=', UPLOAD_LIMITS.quotaBytes))
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) !== 1) throw new ApiError('payload_too_large', 'quota exceeded');
  const row = await db
    .insertInto('file_blobs')
    .values({ owner_account_id: accountId, size: content.length, content })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Deletes files and gives their bytes back to their owners' quotas. */
export async function deleteBlobs(db: Db, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  // What this call deleted, and only that, is given back (a parallel delete of the same file gives nothing).
  const rows = await db
    .deleteFrom('file_blobs')
    .where('id', 'in', ids)
    .returning(['owner_account_id', 'size'])
    .execute();
  for (const row of rows) {
    await db
      .updateTable('account_storage')
      .set((eb) => ({ used_bytes: eb('used_bytes', '-', row.size) }))
      .where('account_id', '=', row.owner_account_id)
      .execute();
  }
}

/**
 * Deletes private messages to the group leaders (and homework): their files go, with the bytes
 * given back to the quota, and their text and subject are emptied. Run inside a transaction.
 */
export async function deleteMeetingMessages(db: Db, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const files = await db
    .selectFrom('meeting_message_files')
    .select('blob_id')
    .where('meeting_message_id', 'in', ids)
    .execute();
  await db.deleteFrom('meeting_message_files').where('meeting_message_id', 'in', ids).execute();
  await deleteBlobs(
    db,
    files.map((f) => f.blob_id),
  );
  await db
    .updateTable('meeting_messages')
    .set((eb) => ({ text: '', subject: '', deleted_date: eb.fn.coalesce('deleted_date', eb.val(nowIso())) }))
    .where('id', 'in', ids)
    .execute();
}

export async function readBlob(db: Db, id: number): Promise<Buffer | null> {
  const row = await db.selectFrom('file_blobs').select('content').where('id', '=', id).executeTakeFirst();
  return row ? Buffer.from(row.content) : null;
}

/** Always a download, never rendered inline by the browser, with the real type and nosniff. */
export function sendAttachment(reply: FastifyReply, name: string, contentType: string, data: Buffer) {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_');
  return reply
    .header('Content-Type', contentType)
    .header(
      'Content-Disposition',
      `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`,
    )
    .header('X-Content-Type-Options', 'nosniff')
    .header('Cache-Control', 'private, no-store')
    .send(data);
}
