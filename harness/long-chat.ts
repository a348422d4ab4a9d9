import { openDatabase } from '../server/db/database.ts';
import { messageRow } from '../server/conversations/writes.ts';

/**
 * Makes a chat long: writes `texts` as counsellor messages after the conversation's own messages,
 * straight to the server's database (through the API, thousands of messages would take minutes
 * under its per-account limits). A long chat's messages all lie in the past, so every message of
 * the conversation is then dated one millisecond apart, in order, ending a second ago: whatever
 * the API writes afterwards comes after them. Used by the long-history e2e spec and the cold-start
 * benchmark.
 */
export async function appendCounsellorMessages(databaseUrl: string, conversationId: number, texts: string[]) {
  const { db, close } = openDatabase(databaseUrl);
  try {
    await db.transaction().execute(async (trx) => {
      const template = await trx
        .selectFrom('conversation_messages')
        .select(['agent_account_id', 'author_name'])
        .where('conversation_id', '=', conversationId)
        .where('author_kind', '=', 'agent')
        .executeTakeFirstOrThrow();
      const now = new Date().toISOString();
      for (let i = 0; i < texts.length; i += 500) {
        await trx
          .insertInto('conversation_messages')
          .values(
            texts.slice(i, i + 500).map((message) =>
              messageRow(
                {
                  conversationId,
                  authorKind: 'agent',
                  agentAccountId: template.agent_account_id,
                  authorName: template.author_name,
                  message,
                  loggedDate: now,
                },
                false,
              ),
            ),
          )
          .execute();
      }
      const ids = await trx
        .selectFrom('conversation_messages')
        .select('id')
        .where('conversation_id', '=', conversationId)
        .orderBy('id')
        .execute();
      const base = Date.now() - 1000 - ids.length;
      for (const [index, { id }] of ids.entries()) {
        await trx
          .updateTable('conversation_messages')
          .set({ logged_date: new Date(base + index).toISOString() })
          .where('id', '=', id)
          .execute();
      }
    });
  } finally {
    await close();
  }
}
