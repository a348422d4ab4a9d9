import type { Kysely, Migration } from 'kysely';
import type { DatabaseKind } from '../database-kind.ts';

/**
 * Rate limits as token buckets (server/security/rate-limiter.ts) instead of fixed windows, which let
 * twice a limit through around a window's turn. A bucket is one time per key: when it will be full
 * again (the generic cell rate algorithm's theoretical arrival time), epoch milliseconds. The fixed
 * windows' counters last at most two hours anyway: dropped.
 */
export function rateBucketsMigration(kind: DatabaseKind): Migration {
  const bigint = kind === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.dropTable('rate_limits').execute();
      await db.schema
        .createTable('rate_buckets')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('full_at', bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('rate_buckets_full_at').on('rate_buckets').column('full_at').execute();
    },
  };
}
