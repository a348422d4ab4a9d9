import type { Kysely, Migration } from 'kysely';

/**
 * The daily chat limit (SPEC §9): when a one-to-one chat went live (the counsellor's first
 * message) and when the server ends it. The sweep looks chats up by their end.
 */
export const chatLimitMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('conversations').addColumn('live_since', 'text').execute();
    await db.schema.alterTable('conversations').addColumn('limit_ends_at', 'text').execute();
    await db.schema
      .createIndex('conversations_limit_ends_at')
      .on('conversations')
      .column('limit_ends_at')
      .execute();
  },
};
