import type { Kysely, Migration } from 'kysely';
import type { DatabaseKind } from '../database-kind.ts';

/**
 * Counsellors' notes for the next counsellor (docs/decisions.md, "Notes for the next counsellor"):
 * one row per note, about the child (`contact_id`) and written on one of their chats or mail, by the
 * counsellor who held it. Never in a child's answer; erased with the child's account. Only an added
 * table: a build before this one runs on the migrated database unchanged.
 */
export function counsellorNotesMigration(kind: DatabaseKind): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const table = db.schema.createTable('counsellor_notes');
      await (
        kind === 'postgres'
          ? table.addColumn('id', 'serial', (c) => c.primaryKey())
          : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
      )
        .addColumn('contact_id', 'integer', (c) => c.notNull())
        .addColumn('conversation_id', 'integer', (c) => c.notNull())
        .addColumn('author_account_id', 'integer', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('counsellor_notes_contact')
        .on('counsellor_notes')
        .columns(['contact_id', 'created_date'])
        .execute();
    },
  };
}
