import type { Kysely, Migration } from 'kysely';

/**
 * Accounts by when they were erased: the late-write sweep (server/conversations/erasure.ts) reads those
 * erased in the last minutes every minute, in every process, without reading every account.
 */
export const erasedAccountsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex('accounts_deleted').on('accounts').column('deleted_date').execute();
  },
};
