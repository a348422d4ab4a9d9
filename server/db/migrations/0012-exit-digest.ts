import type { Kysely, Migration } from 'kysely';

/**
 * The quick exit's handle on each refresh token (contract/quick-exit.ts), kept as its digest: the
 * page's 'Lämna sidan' can then end the login without ever holding the refresh token. Nullable and
 * without a constraint, so a build before this one still runs on the migrated database (it names
 * the columns it writes and leaves this one empty); a token stored without it has no handle.
 * `text` and a plain index read alike on SQLite and PostgreSQL.
 */
export const exitDigestMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('refresh_tokens').addColumn('exit_digest', 'text').execute();
    await db.schema
      .createIndex('refresh_tokens_exit_digest')
      .on('refresh_tokens')
      .column('exit_digest')
      .execute();
  },
};
