import type { FastifyRequest } from 'fastify';
import type { Principal } from '../auth/principal.ts';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { principalOf } from '../http/guard.ts';

/**
 * A counsellor's hold on a one-to-one conversation, as every counsellor route checks it: the caller
 * is a counsellor, the conversation is a chat or mail (not a meeting's), and they hold it.
 */

/** The caller, when a counsellor; refused otherwise. */
export function counsellorOf(req: Pick<FastifyRequest, 'principal'>): Principal {
  const principal = principalOf(req);
  if (!principal.roles.includes('counsellor')) throw new ApiError('forbidden');
  return principal;
}

export type ConversationRow = Awaited<ReturnType<typeof oneToOne>>;

/** A chat or mail by its id; a meeting's chat or an unknown id is not found. */
export async function oneToOne(ctx: AppContext, id: number) {
  const row = await ctx.db.selectFrom('conversations').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row || row.meeting_id !== null) throw new ApiError('not_found');
  return row;
}

/** A conversation the counsellor holds: accepted by them (a chat) or answered by them (mail). */
export function requireOwn(row: ConversationRow, accountId: number) {
  if (row.agent_account_id !== accountId) throw new ApiError('forbidden');
}
