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
import pg from 'pg';
import { createTestDatabase, LOCAL_POSTGRES_URL } from '../../../harness/test-server.ts';

const opened: Array<{ database: OpenDatabase; drop(): Promise<void> }> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const { database, drop } of opened.splice(0)) {
    await database.close();
    await drop();
  }
});

async function freshDatabase(base?: string): Promise<OpenDatabase & { url: string }> {
  const { url, drop } = await createTestDatabase(base);
  const database = openDatabase(url);
  opened.push({ database, drop });
  return { ...database, url };
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

  it('a build that waited for the migration lock while a newer one migrated starts too (PostgreSQL)', async () => {
    const database = await freshDatabase(LOCAL_POSTGRES_URL);
    await migrateToLatest(database);
    // The newer build's process holds the migration lock (Kysely's advisory lock on PostgreSQL)...
    const newer = new pg.Client({ connectionString: database.url });
    await newer.connect();
    try {
      await newer.query('SELECT pg_advisory_lock(3853314791062309107)');
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
      // ...while this build restarts: its first look finds nothing ahead, and it waits for the lock.
      const starting = migrateToLatest(database);
      for (;;) {
        const { rows } = await newer.query(
          "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
        );
        if (rows.length > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await newer.query('ALTER TABLE conversation_messages ADD COLUMN next_build_note text');
      await newer.query("INSERT INTO kysely_migration (name, timestamp) VALUES ('9999-next-build', $1)", [
        new Date().toISOString(),
      ]);
      await newer.query('SELECT pg_advisory_unlock(3853314791062309107)');

      await expect(starting).resolves.toBeUndefined();
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('9999-next-build'));
    } finally {
      await newer.end();
    }
  });
});
