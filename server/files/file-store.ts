import type { FastifyReply } from 'fastify';
import type { Db } from '../db/database.ts';
import { UPLOAD_LIMITS } from '../../contract/meetings.ts';
import { ApiError } from '../errors.ts';

/** Bytes an account has stored, for the per-user quota. */
export async function storedBytes(db: Db, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('file_blobs')
    .select((eb) => eb.fn.sum<number>('size').as('total'))
    .where('owner_account_id', '=', accountId)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

export async function saveBlob(db: Db, accountId: number, content: Uint8Array): Promise<number> {
  if (content.length > UPLOAD_LIMITS.maxBytes) throw new ApiError('payload_too_large');
  if ((await storedBytes(db, accountId)) + content.length > UPLOAD_LIMITS.quotaBytes) {
    throw new ApiError('payload_too_large', 'quota exceeded');
  }
  const row = await db
    .insertInto('file_blobs')
    .values({ owner_account_id: accountId, size: content.length, content })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
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
