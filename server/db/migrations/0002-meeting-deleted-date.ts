import type { Kysely, Migration } from 'kysely';

/** A deleted meeting disappears from every list (SPEC §2 Meeting list), unlike a cancelled one. */
export const meetingDeletedDate: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('meetings').addColumn('deleted_date', 'text').execute();
  },
};
