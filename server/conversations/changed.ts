import { HUB_EVENTS, entityKey } from '../../contract/hub.ts';
import { accountsWithRole } from '../auth/accounts.ts';
import type { AppContext } from '../context.ts';

/** Who hears that a conversation changed. */
export interface ChangeAudience {
  /** Its subscribers and the owning child's account (whose chat may be minimised). */
  watchers?: boolean;
  /**
   * Every counsellor's account, so the staff console's queue is live without a subscription (a
   * counsellor cannot subscribe to a conversation that did not exist yet). One-to-one only.
   */
  queue?: boolean;
}

/**
 * The one way a handler announces that a conversation changed: `Conversation.Updated` with the
 * conversation's entity key, to its watchers and (for a chat or mail) to the counsellors' queue.
 * Every state-changing handler calls it after its write; the audience is both unless the caller
 * knows one side has nothing to learn (a new chat has no watchers yet, a chat message changes
 * nothing in the queue).
 */
export async function conversationChanged(
  ctx: AppContext,
  conversationId: number,
  { watchers = true, queue = true }: ChangeAudience = {},
): Promise<void> {
  if (watchers) await tellWatchers(ctx, conversationId);
  if (queue) await tellCounsellors(ctx, conversationId);
}

async function tellWatchers(ctx: AppContext, conversationId: number) {
  const key = entityKey('Conversation', conversationId);
  const data = { conversationId };
  const owner = await ctx.db
    .selectFrom('conversations')
    .innerJoin('accounts', 'accounts.contact_id', 'conversations.contact_id')
    .select('accounts.id')
    .where('conversations.id', '=', conversationId)
    .executeTakeFirst();
  await Promise.all([
    ctx.hub.publishToEntity(key, HUB_EVENTS.conversationUpdated, data),
    owner ? ctx.hub.publishToAccount(owner.id, HUB_EVENTS.conversationUpdated, data, key) : undefined,
  ]);
}

async function tellCounsellors(ctx: AppContext, conversationId: number) {
  const row = await ctx.db
    .selectFrom('conversations')
    .select('meeting_id')
    .where('id', '=', conversationId)
    .executeTakeFirst();
  // A group chat is no counsellor's business: it never waits in their queue.
  if (!row || row.meeting_id !== null) return;
  const key = entityKey('Conversation', conversationId);
  await Promise.all(
    (await accountsWithRole(ctx.db, 'counsellor')).map((id) =>
      ctx.hub.publishToAccount(id, HUB_EVENTS.conversationUpdated, { conversationId }, key),
    ),
  );
}
