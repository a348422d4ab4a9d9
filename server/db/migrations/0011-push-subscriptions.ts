import type { CreateTableBuilder, Kysely, Migration } from 'kysely';
import type { DatabaseKind } from '../database-kind.ts';

/**
 * Web Push (server/push/): the VAPID key pairs the server signs its pushes with (the private half
 * encrypted like the signing keys'), one push subscription per login (the refresh-token family:
 * a logout, a revoked login or a password change ends it), and one row per conversation and kind
 * holding when the last push went out, so that every process together sends at most one a minute.
 */
export function pushSubscriptionsMigration(kind: DatabaseKind): Migration {
  const withId = <T extends string>(t: CreateTableBuilder<T, never>) =>
    kind === 'postgres'
      ? t.addColumn('id', 'serial', (c) => c.primaryKey())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  const bigint = kind === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      await withId(db.schema.createTable('vapid_keys'))
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('private_key', 'text', (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .addColumn('retired_date', 'text')
        .execute();
      await withId(db.schema.createTable('push_subscriptions'))
        .addColumn('account_id', 'integer', (c) => c.notNull())
        .addColumn('login_key', 'text', (c) => c.notNull().unique())
        .addColumn('vapid_key_id', 'integer', (c) => c.notNull())
        .addColumn('endpoint', 'text', (c) => c.notNull())
        .addColumn('p256dh', 'text', (c) => c.notNull())
        .addColumn('auth', 'text', (c) => c.notNull())
        .addColumn('created_date', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('push_subscriptions_account')
        .on('push_subscriptions')
        .columns(['account_id', 'created_date'])
        .execute();
      await db.schema
        .createTable('push_bursts')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('sent_at', bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('push_bursts_sent_at').on('push_bursts').column('sent_at').execute();
    },
  };
}
