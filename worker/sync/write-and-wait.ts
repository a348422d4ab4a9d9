import type { OutboxRow } from '../base/db.ts';
import { isRateLimited } from '../base/db.ts';
import { failure, ok, type Result, type WriteAnswer } from '../base/result.ts';
import type { OutboxWriteRequest } from '../base/session.ts';
import type { SyncContext } from './sync-context.ts';

/** How long a new piece of writing waits for the outbox before it answers 'queued' (the write goes on). */
export const WRITE_ANSWER_WAIT_MS = 10_000;

/**
 * A new piece of writing through the outbox, so that one written offline is kept and sent once
 * (its client id is the Idempotency-Key), and a short wait for its answer, so the page can open
 * what it wrote: refused for good is 'failed'; asked to wait is 'waiting'; not sent yet is 'queued';
 * sent is what `sent` reads from the stored answer (or 'queued' when it cannot read one).
 */
export async function writeAndWait<Sent extends object>(
  ctx: Pick<SyncContext, 'enqueue' | 'whenSettled'>,
  write: (clientId: string) => Omit<OutboxWriteRequest, 'clientId'>,
  sent: (row: OutboxRow) => Promise<Sent | null>,
): Promise<Result<WriteAnswer<Sent>, 'failed'>> {
  const clientId = crypto.randomUUID();
  await ctx.enqueue({ ...write(clientId), clientId });
  const row = await ctx.whenSettled(clientId, WRITE_ANSWER_WAIT_MS);
  if (row?.status === 'failed' && row.final) return failure('failed');
  if (row && isRateLimited(row)) return ok({ status: 'waiting', clientId, message: row.lastMessage ?? null });
  const value = row?.status === 'sent' ? await sent(row) : null;
  return ok(value ? { status: 'sent', ...value } : { status: 'queued', clientId });
}
