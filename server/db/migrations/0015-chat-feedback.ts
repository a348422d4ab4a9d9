import { sql, type Kysely, type Migration } from 'kysely';
import type { DatabaseKind } from '../database-kind.ts';

/**
 * 'Hur kändes chatten?' (docs/decisions.md "Heard after the chat"), kept apart from who answered:
 * - `chat_feedback_counts`: one count per channel (0: none), ISO week and answer, raised by one per
 *   answer; no row per answer, so nothing orders or dates one child's.
 * - `chat_feedback_texts`: each free text with its channel and week, keyed by a random id. In SQLite
 *   the table has no rowid, so not even the storage order tells when one was written.
 * - `chat_feedback_given`: which ended chats have had their answer (`part` 'answer') and their text
 *   ('text'), so that each is taken once. It says that, not what.
 * Only added tables: a build before this one runs on the migrated database unchanged.
 */
export function chatFeedbackMigration(kind: DatabaseKind): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('chat_feedback_counts')
        .addColumn('channel_id', 'integer', (c) => c.notNull())
        .addColumn('week', 'text', (c) => c.notNull())
        .addColumn('answer', 'text', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('chat_feedback_counts_pk', ['channel_id', 'week', 'answer'])
        .execute();
      const texts = db.schema
        .createTable('chat_feedback_texts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('channel_id', 'integer', (c) => c.notNull())
        .addColumn('week', 'text', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull());
      await (kind === 'postgres' ? texts : texts.modifyEnd(sql`without rowid`)).execute();
      await db.schema
        .createTable('chat_feedback_given')
        .addColumn('conversation_id', 'integer', (c) => c.notNull())
        .addColumn('part', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('chat_feedback_given_pk', ['conversation_id', 'part'])
        .execute();
    },
  };
}
