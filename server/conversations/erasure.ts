import { isFinalState } from '../../contract/conversation-state.ts';
import type { AppContext } from '../context.ts';
import { nowIso, type Db } from '../db/database.ts';
import { conversationChanged } from './changed.ts';
import { deleteMeetingMessages } from '../files/file-store.ts';
import { logErasure } from '../security/erasure-log.ts';
import { CONVERSATION_STATE } from '../../contract/conversation-state.ts';

/**
 * Erases a deleted account (docs/security.md: what is kept, and what is erased when). Whatever held the person
 * goes: name, username, password and code digests, properties, the conversation properties (age,
 * gender, device) and every message of their own chats and mail, their uploads and private messages,
 * notifications, contact messages, client logs, idempotency records, known-good addresses, login
 * sessions, push subscriptions and the counsellors' notes about them. What others wrote in a group chat stays, and the person's group-chat messages stay for
 * the group without any name or id that leads back to them.
 */
export async function eraseAccount(
  ctx: AppContext,
  accountId: number,
  contactId: number,
  options: { logged?: boolean } = {},
): Promise<void> {
  // Logged first, outside the database: restoring a backup taken before now must not bring the
  // person back (server/security/erasure-log.ts). `logged`: the start is making a logged one again.
  if (!options.logged) await logErasure(ctx.db, ctx.config.databaseUrl, accountId);
  const openChats = await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('accounts')
      .set((eb) => ({ deleted_date: nowIso(), token_generation: eb('token_generation', '+', 1) }))
      .where('id', '=', accountId)
      .execute();
    return eraseRemains(trx, accountId, contactId);
  });
  await ctx.hub.disconnectAccount(accountId);
  // A counsellor with one of these chats open sees it end (a console watching the queue is subscribed).
  for (const id of openChats) await conversationChanged(ctx, id, { queue: false });
}

/**
 * A request the account made just before its erasure was checked while the account still stood,
 * and may write after the erasure has committed (a message, a mail, a new name). Accounts erased
 * this recently are erased again on a timer (server/jobs/jobs.ts), so such a late write is gone
 * within a minute. Far beyond any request's own run time.
 */
export const LATE_WRITE_WINDOW_MS = 15 * 60_000;

/** Erases again what accounts erased in the last LATE_WRITE_WINDOW_MS hold; answers how many it looked at. */
export async function eraseLateWrites(ctx: AppContext, now = Date.now()): Promise<number> {
  const recent = await ctx.db
    .selectFrom('accounts')
    .select(['id', 'contact_id'])
    .where('deleted_date', '>=', new Date(now - LATE_WRITE_WINDOW_MS).toISOString())
    .execute();
  for (const account of recent) {
    const openChats = await ctx.db
      .transaction()
      .execute((trx) => eraseRemains(trx, account.id, account.contact_id));
    for (const id of openChats) await conversationChanged(ctx, id, { queue: false });
  }
  return recent.length;
}

/** Everything an erased account holds, emptied; safe to run again. Answers the chats it ended. */
async function eraseRemains(trx: Db, accountId: number, contactId: number): Promise<number[]> {
  await trx
    .updateTable('accounts')
    .set({ username: null, password_hash: null, personal_code_digest: null })
    .where('id', '=', accountId)
    .execute();
  await trx.updateTable('contacts').set({ name: '' }).where('id', '=', contactId).execute();
  await trx.deleteFrom('contact_properties').where('contact_id', '=', contactId).execute();
  // What counsellors noted about the person for the next counsellor.
  await trx.deleteFrom('counsellor_notes').where('contact_id', '=', contactId).execute();
  await trx.deleteFrom('account_roles').where('account_id', '=', accountId).execute();
  await trx.deleteFrom('series_memberships').where('account_id', '=', accountId).execute();
  const open = await eraseOwnConversations(trx, contactId);
  // A message written to one of those after it was detached (a late write) is emptied as well.
  await messagesOfContact(trx, contactId, 'one-to-one')
    .set({ message: '', author_name: null, contact_id: null })
    .execute();
  // Group chats: the words stay for the group, the author does not. Only group chats' messages: a
  // one-to-one message committed between the statement above and this one keeps its author id, so
  // the next sweep still finds and empties it (a detached message could never be found again).
  await messagesOfContact(trx, contactId, 'group').set({ author_name: null, contact_id: null }).execute();
  await trx.deleteFrom('conversation_connections').where('contact_id', '=', contactId).execute();
  await eraseMeetingMessages(trx, accountId);
  await trx.deleteFrom('notifications').where('account_id', '=', accountId).execute();
  await trx.deleteFrom('contact_messages').where('contact_id', '=', contactId).execute();
  await trx.deleteFrom('client_logs').where('account_id', '=', accountId).execute();
  await trx.deleteFrom('idempotency_keys').where('account_id', '=', accountId).execute();
  await trx.deleteFrom('refresh_tokens').where('account_id', '=', accountId).execute();
  await trx.deleteFrom('push_subscriptions').where('account_id', '=', accountId).execute();
  await trx.deleteFrom('known_login_addresses').where('subject', '=', `account:${accountId}`).execute();
  await trx.deleteFrom('login_devices').where('subject', '=', `account:${accountId}`).execute();
  await trx.deleteFrom('login_record').where('account_id', '=', accountId).execute();
  await trx.deleteFrom('account_storage').where('account_id', '=', accountId).execute();
  // Peers: the young person's posts (with every reply to them) and replies go with them.
  const posts = trx.selectFrom('peer_posts').select('id').where('author_account_id', '=', accountId);
  await trx.deleteFrom('peer_replies').where('post_id', 'in', posts).execute();
  await trx.deleteFrom('peer_replies').where('author_account_id', '=', accountId).execute();
  await trx.deleteFrom('peer_posts').where('author_account_id', '=', accountId).execute();
  return open;
}

/** An update of the contact's messages in one-to-one conversations, or in group chats only. */
function messagesOfContact(trx: Db, contactId: number, kind: 'one-to-one' | 'group') {
  return trx
    .updateTable('conversation_messages')
    .where('contact_id', '=', contactId)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('conversations')
          .select('conversations.id')
          .whereRef('conversations.id', '=', 'conversation_messages.conversation_id')
          .where('conversations.meeting_id', kind === 'group' ? 'is not' : 'is', null),
      ),
    );
}

/** The person's one-to-one chats and mail: emptied and detached; open ones end. Returns those. */
async function eraseOwnConversations(trx: Db, contactId: number): Promise<number[]> {
  const own = await trx
    .selectFrom('conversations')
    .select(['id', 'state'])
    .where('contact_id', '=', contactId)
    .where('meeting_id', 'is', null)
    .execute();
  return eraseConversations(trx, own);
}

/**
 * Empties one-to-one conversations of everything the child wrote or is: every message's content and
 * author, the conversation properties (age, gender, device), the subject and any cancel reason;
 * detaches them from the account and ends the open ones. Used by a child's delete of a chat from
 * history (SPEC §8) and by the account's erasure. Returns the ids of those that were still open.
 */
export async function eraseConversations(
  trx: Db,
  rows: Array<{ id: number; state: string }>,
): Promise<number[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((c) => c.id);
  await trx
    .updateTable('conversation_messages')
    .set({ message: '', author_name: null, contact_id: null })
    .where('conversation_id', 'in', ids)
    .execute();
  await trx.deleteFrom('conversation_properties').where('conversation_id', 'in', ids).execute();
  await trx.deleteFrom('chat_feedback_given').where('conversation_id', 'in', ids).execute();
  const open = rows.filter((c) => !isFinalState(c.state)).map((c) => c.id);
  if (open.length > 0) {
    await trx
      .updateTable('conversations')
      .set({ state: CONVERSATION_STATE.Cancelled, closed_date: nowIso() })
      .where('id', 'in', open)
      .execute();
  }
  await trx
    .updateTable('conversations')
    .set({ contact_id: null, subject: '', cancel_reason: null })
    .where('id', 'in', ids)
    .execute();
  return open;
}

async function eraseMeetingMessages(trx: Db, accountId: number): Promise<void> {
  const messages = await trx
    .selectFrom('meeting_messages')
    .select('id')
    .where('account_id', '=', accountId)
    .execute();
  await deleteMeetingMessages(
    trx,
    messages.map((m) => m.id),
  );
}
