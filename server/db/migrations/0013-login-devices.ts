import type { Kysely, Migration } from 'kysely';
import type { DatabaseKind } from '../database-kind.ts';

/**
 * Login devices and the login record (docs/security.md, "Login limits"). `login_devices` holds the
 * device tokens the server issued, one row per token and account, as keyed digests: a token is the
 * server's now (it was the app's own, remembered in `known_login_addresses` beside addresses) so
 * that a login can rotate it and a copy goes stale. `login_record` is what an administrator reads of
 * failed logins and brake refusals: per account, hour and kind, a count and its times, never a
 * username, a password or an address (the network as a keyed digest). Only added tables: a build
 * before this one runs on the migrated database unchanged.
 */
export function loginDevicesMigration(kind: DatabaseKind): Migration {
  const bigint = kind === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('login_devices')
        .addColumn('token_digest', 'text', (c) => c.primaryKey())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('created_at', bigint, (c) => c.notNull())
        .addColumn('last_used_at', bigint, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('login_devices_subject')
        .on('login_devices')
        .columns(['subject', 'last_used_at'])
        .execute();
      await db.schema
        .createTable('login_record')
        .addColumn('account_id', 'integer', (c) => c.notNull())
        .addColumn('hour', bigint, (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addColumn('first_at', bigint, (c) => c.notNull())
        .addColumn('last_at', bigint, (c) => c.notNull())
        .addColumn('last_network', 'text')
        .addPrimaryKeyConstraint('login_record_pk', ['account_id', 'hour', 'kind'])
        .execute();
      await db.schema.createIndex('login_record_last_at').on('login_record').column('last_at').execute();
    },
  };
}
