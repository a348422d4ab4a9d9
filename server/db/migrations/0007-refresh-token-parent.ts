import type { Kysely, Migration } from 'kysely';

/**
 * Which refresh token each one was swapped for (null for a login's first). A used token presented
 * again is then told apart from a leaked one: its answer was lost while its successor was never
 * presented (see `TokenService.rotate`).
 */
export const refreshTokenParentMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('refresh_tokens').addColumn('parent_id', 'integer').execute();
    await db.schema.createIndex('refresh_tokens_parent').on('refresh_tokens').column('parent_id').execute();
  },
};
