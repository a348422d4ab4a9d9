/**
 * A rolling upgrade runs two builds on one database: the first new process migrates it, and an old
 * process that restarts meanwhile finds migrations it does not know. Migrations only add, so the old
 * build runs on the newer schema; a database that lacks one of this build's own migrations as well
 * is no rolling upgrade, and is refused. On the suite's database (SQLite, or PostgreSQL under
 * npm run test:scale).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Migrator, sql, type Migration } from 'kysely';
import { migrateToLatest, migrations, openDatabase, type OpenDatabase } from '../../../server/db/database.ts';
import { createTestDatabase } from '../test-server.ts';

const opened: Array<{ database: OpenDatabase; drop(): Promise<void> }> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const { database, drop } of opened.splice(0)) {
    await database.close();
    await drop();
  }
});

async function freshDatabase(): Promise<OpenDatabase> {
  const { url, drop } = await createTestDatabase();
  const database = openDatabase(url);
  opened.push({ database, drop });
  return database;
}

/** The next build's migration: a column added to a table this build reads and writes. */
const NEXT_BUILD: Migration = {
  up: async (db) => {
    await db.schema.alterTable('conversation_messages').addColumn('next_build_note', 'text').execute();
  },
};

/** Migrates as the next build would: every migration of this build, then its own. */
async function migrateAsNextBuild(database: OpenDatabase) {
  const { error } = await new Migrator({
    db: database.db,
    provider: {
      getMigrations: async () => ({ ...migrations(database.kind), '9999-next-build': NEXT_BUILD }),
    },
  }).migrateToLatest();
  if (error) throw error;
}

describe('a database migrated by a newer build', () => {
  it('this build starts on it and writes as before, the new column left to the newer build', async () => {
    const database = await freshDatabase();
    await migrateAsNextBuild(database);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);

    await migrateToLatest(database);

    expect(warn).toHaveBeenCalledWith(expect.stringContaining('9999-next-build'));
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(database.db);
    expect(rows.map((r) => r.name)).toContain('9999-next-build');
    // The old build's own inserts name their columns: the one it does not know stays empty.
    const conversation = await database.db
      .insertInto('conversations')
      .values({
        system_type: 'mail',
        state: 'New',
        subject: '',
        logged_date: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const message = await database.db
      .insertInto('conversation_messages')
      .values({
        conversation_id: conversation.id,
        author_kind: 'system',
        message: 'Hej',
        logged_date: new Date().toISOString(),
        created_after_closed: 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(message.id).toBeGreaterThan(0);
  });

  it('is refused when it also lacks a migration of this build', async () => {
    const database = await freshDatabase();
    const names = Object.keys(migrations(database.kind));
    const withoutLast = Object.fromEntries(
      Object.entries(migrations(database.kind)).filter(([name]) => name !== names.at(-1)),
    );
    const { error } = await new Migrator({
      db: database.db,
      provider: { getMigrations: async () => ({ ...withoutLast, '9999-next-build': NEXT_BUILD }) },
    }).migrateToLatest();
    if (error) throw error;

    await expect(migrateToLatest(database)).rejects.toThrow(/Migration/);
  });
});
