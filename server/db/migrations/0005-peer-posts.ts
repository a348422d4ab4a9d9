import type { CreateTableBuilder, Kysely, Migration } from 'kysely';
import type { DatabaseKind } from '../database-kind.ts';

/**
 * Peers: posts by young people for young people and their replies, each moderated before
 * others see it. The author is kept by account (for their own view and erasure) and by username (the
 * only thing others see of them).
 */
export function peerPostsMigration(kind: DatabaseKind): Migration {
  const withId = <T extends string>(t: CreateTableBuilder<T, never>) =>
    kind === 'postgres'
      ? t.addColumn('id', 'serial', (c) => c.primaryKey())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  return {
    async up(db: Kysely<unknown>) {
      await withId(db.schema.createTable('peer_posts'))
        .addColumn('author_account_id', 'integer', (c) => c.notNull())
        .addColumn('author_name', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('reject_reason', 'text')
        .addColumn('reported', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('published_date', 'text')
        .execute();
      await db.schema
        .createIndex('peer_posts_state')
        .on('peer_posts')
        .columns(['state', 'published_date'])
        .execute();
      await db.schema.createIndex('peer_posts_author').on('peer_posts').column('author_account_id').execute();
      await withId(db.schema.createTable('peer_replies'))
        .addColumn('post_id', 'integer', (c) => c.notNull().references('peer_posts.id').onDelete('cascade'))
        .addColumn('author_account_id', 'integer', (c) => c.notNull())
        .addColumn('author_name', 'text', (c) => c.notNull())
        .addColumn('by_staff', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('reject_reason', 'text')
        .addColumn('reported', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('published_date', 'text')
        .execute();
      await db.schema
        .createIndex('peer_replies_post')
        .on('peer_replies')
        .columns(['post_id', 'state'])
        .execute();
      await db.schema.createIndex('peer_replies_state').on('peer_replies').column('state').execute();
    },
  };
}
