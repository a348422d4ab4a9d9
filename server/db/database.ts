import fs from 'node:fs';
import path from 'node:path';
import {
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  CompiledQuery,
  DEFAULT_MIGRATION_TABLE,
  sql,
  type DatabaseConnection,
  type SqliteDatabase,
} from 'kysely';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { Database } from './schema.ts';
import { initialMigration } from './migrations/0001-initial.ts';
import { meetingDeletedDate } from './migrations/0002-meeting-deleted-date.ts';
import { securityMigration } from './migrations/0003-security.ts';
import { chatLimitMigration } from './migrations/0004-chat-limit.ts';
import { peerPostsMigration } from './migrations/0005-peer-posts.ts';
import { listIndexesMigration } from './migrations/0006-list-indexes.ts';
import { refreshTokenParentMigration } from './migrations/0007-refresh-token-parent.ts';
import { erasedAccountsMigration } from './migrations/0008-erased-accounts.ts';
import { rateBucketsMigration } from './migrations/0009-rate-buckets.ts';
import { neutralNamesMigration } from './migrations/0010-neutral-names.ts';
import { pushSubscriptionsMigration } from './migrations/0011-push-subscriptions.ts';
import { exitDigestMigration } from './migrations/0012-exit-digest.ts';
import { loginDevicesMigration } from './migrations/0013-login-devices.ts';
import { counsellorNotesMigration } from './migrations/0014-counsellor-notes.ts';
import { chatFeedbackMigration } from './migrations/0015-chat-feedback.ts';
import { databaseKind, type DatabaseKind } from './database-kind.ts';

export type Db = Kysely<Database>;

export interface OpenDatabase {
  db: Db;
  kind: DatabaseKind;
  /** PostgreSQL's connection pool as it is now; null for SQLite (one connection, in process). */
  poolStats(): PoolStats | null;
  close(): Promise<void>;
}

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/** What went wrong with the database: a failed statement, or a pooled connection that broke while idle. */
export type DatabaseErrorKind = 'query' | 'connection';

/** Called with every statement the database runs (tests read the query plans of what the API runs). */
export type QueryListener = (query: CompiledQuery) => void;

export function openDatabase(
  url: string,
  options: { onQuery?: QueryListener; onError?: (kind: DatabaseErrorKind) => void } = {},
): OpenDatabase {
  const kind = databaseKind(url);
  const { onQuery, onError } = options;
  const log =
    onQuery || onError
      ? (event: { level: string; query: CompiledQuery }) => {
          if (event.level === 'query') onQuery?.(event.query);
          else if (event.level === 'error') onError?.('query');
        }
      : undefined;
  if (kind === 'postgres') {
    // int8 (counts, sums) would otherwise arrive as strings.
    pg.types.setTypeParser(20, (v) => Number(v));
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    // A pooled connection that breaks (PostgreSQL restarted, pg_terminate_backend, a cut network)
    // emits 'error' on its client, and on the pool too while idle; unheard, either event would end
    // the whole process. The pool drops the broken connection and the next query opens a new one;
    // a statement that was running on it fails, and its request answers 5xx for the client to retry.
    pool.on('connect', (client) => {
      client.on('error', (error: Error & { code?: string }) => {
        console.warn(`database: a connection broke (${error.code ?? error.message})`);
        onError?.('connection');
      });
    });
    pool.on('error', () => undefined); // reported by the client's own listener above
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log });
    return {
      db,
      kind,
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: () => db.destroy(),
    };
  }
  if (url !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(url)), { recursive: true });
  const sqlite = new SQLite(url);
  // WAL lets readers go on while one writer writes; busy_timeout waits out a concurrent writer.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect(keepStatements(sqlite)), log });
  return { db, kind, poolStats: () => null, close: () => db.destroy() };
}

/**
 * A transaction takes SQLite's write lock when it begins (BEGIN IMMEDIATE), waiting out another
 * process's writer for busy_timeout. A deferred one that reads first and then writes (a message
 * reads its conversation's state, then stores itself with its idempotency key) cannot wait: when
 * another process wrote meanwhile, SQLite refuses its upgrade at once with "database is locked".
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #database: SqliteDatabase;
  constructor(database: SqliteDatabase) {
    super({ database });
    this.#database = database;
  }
  override createDriver() {
    return new ImmediateSqliteDriver({ database: this.#database });
  }
}

/** How many prepared statements a SQLite database keeps (the app runs a few hundred distinct ones). */
export const SQLITE_STATEMENT_CACHE = 1000;

/**
 * better-sqlite3 as Kysely's SQLite dialect uses it, with its prepared statements kept by their SQL,
 * the least recently used dropped past SQLITE_STATEMENT_CACHE. Kysely prepares every query it runs
 * afresh, and under load (npm run bench:api) preparing took as long as running: about a tenth of
 * the server's busy time. Reuse is safe here: better-sqlite3 runs a statement to its end in one
 * synchronous call (nothing here iterates one), and SQLite prepares a kept statement again by
 * itself when the schema changes (a migration).
 */
export function keepStatements(sqlite: SQLite.Database, size = SQLITE_STATEMENT_CACHE): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (statement) {
        statements.delete(sql);
      } else {
        statement = sqlite.prepare(sql);
        if (statements.size >= size) statements.delete(statements.keys().next().value!);
      }
      statements.set(sql, statement);
      return statement;
    },
  };
}

/** Every migration, by name, in order. */
export function migrations(kind: DatabaseKind) {
  return {
    '0001-initial': initialMigration(kind),
    '0002-meeting-deleted-date': meetingDeletedDate,
    '0003-security': securityMigration(kind),
    '0004-chat-limit': chatLimitMigration,
    '0005-peer-posts': peerPostsMigration(kind),
    '0006-list-indexes': listIndexesMigration,
    '0007-refresh-token-parent': refreshTokenParentMigration,
    '0008-erased-accounts': erasedAccountsMigration,
    '0009-rate-buckets': rateBucketsMigration(kind),
    '0010-neutral-names': neutralNamesMigration,
    '0011-push-subscriptions': pushSubscriptionsMigration(kind),
    '0012-exit-digest': exitDigestMigration,
    '0013-login-devices': loginDevicesMigration(kind),
    '0014-counsellor-notes': counsellorNotesMigration(kind),
    '0015-chat-feedback': chatFeedbackMigration(kind),
  };
}

/** Migrates to the newest schema, or to the named migration (a test of a later one starts there). */
export async function migrateToLatest(
  open: OpenDatabase,
  upTo?: keyof ReturnType<typeof migrations>,
): Promise<void> {
  // A rolling upgrade: a newer build has migrated the shared database while this one still runs
  // (or restarts). Migrations only add (docs/operations.md, "Rolling upgrade"), so this build runs on
  // the newer schema unchanged, provided it lacks none of its own. Asked before migrating, and again
  // when the migrator refuses: a newer build may have migrated while this one waited for its lock.
  const runsOnNewerSchema = async () => {
    const known = Object.keys(migrations(open.kind));
    const done = await executedMigrations(open.db);
    const ahead = done.filter((name) => !known.includes(name));
    if (ahead.length === 0 || !known.every((name) => done.includes(name))) return false;
    console.warn(`database: its schema is ahead of this build (${ahead.join(', ')}); running on it`);
    return true;
  };
  if (!upTo && (await runsOnNewerSchema())) return;
  const migrator = new Migrator({
    db: open.db,
    provider: { getMigrations: async () => migrations(open.kind) },
  });
  const { error, results } = upTo ? await migrator.migrateTo(upTo) : await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    if (!upTo && !failed && (await runsOnNewerSchema())) return;
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed`, { cause: error });
  }
}

/** The names of the migrations the database has run (none before its first). */
async function executedMigrations(db: Db): Promise<string[]> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((t) => t.name === DEFAULT_MIGRATION_TABLE)) return [];
  const { rows } = await sql<{
    name: string;
  }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)}`.execute(db);
  return rows.map((r) => r.name);
}

export const nowIso = (): string => new Date().toISOString();

/** `items` in parts of `size`: a statement with one parameter per value stays under every database's limit. */
export function inChunks<T>(items: readonly T[], size = 500): T[][] {
  const parts: T[][] = [];
  for (let i = 0; i < items.length; i += size) parts.push(items.slice(i, i + size));
  return parts;
}

/** A write refused by a unique key, on either engine (SQLite's constraint code, PostgreSQL's 23505). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
