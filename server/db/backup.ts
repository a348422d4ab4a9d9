import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { databaseKind, type DatabaseKind } from './database-kind.ts';
import {
  BackupError,
  backupFileInfo,
  ENGINE,
  readBackupFile,
  secretToSign,
  writeBackupFile,
  type BackupSigning,
} from './backup-file.ts';

export { BackupError, backupSigningOf, type BackupSigning } from './backup-file.ts';

/**
 * Backup and restore of a site's database (`npm run backup`, `npm run restore`; docs/operations.md,
 * "Backup and restore"). The database is the whole site: uploaded files (file_blobs) and the token
 * signing keys (envelopekeys) live in it. What lives outside on purpose: SIGNING_KEY_SECRET, which
 * decrypts the keys (keep it in the secret store, never beside a backup), and the erasure log
 * (server/security/erasure-log.ts), which must outlive every restore. A backup is signed under
 * that secret (server/db/backup-file.ts), and a restore refuses one that was changed.
 */

/**
 * Writes a consistent copy of the database `databaseUrl` names to `file` while the site runs:
 * SQLite through its online backup API (one snapshot, writers go on), PostgreSQL through
 * `pg_dump --format=custom` (one snapshot). The copy is checked, signed under the site's secret
 * (unsigned without one, refused in production) and then moved into place, so `file` is either the
 * whole backup or untouched.
 */
export async function backupDatabase(
  databaseUrl: string,
  file: string,
  signing: BackupSigning,
): Promise<{ kind: DatabaseKind; bytes: number; signed: boolean }> {
  const kind = databaseKind(databaseUrl);
  // Refused before anything is copied, not after.
  secretToSign(signing);
  const target = path.resolve(file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const partial = `${target}.partial-${process.pid}`;
  const envelope = `${target}.signing-${process.pid}`;
  try {
    // Every child's words are in it: readable by the site's own user only, from its first byte.
    fs.writeFileSync(partial, '', { mode: 0o600 });
    if (kind === 'sqlite') await backupSqlite(databaseUrl, partial);
    else await backupPostgres(databaseUrl, partial);
    const { signed } = await writeBackupFile(partial, envelope, kind, signing);
    fs.chmodSync(envelope, 0o600);
    syncFile(envelope);
    fs.renameSync(envelope, target);
    syncFile(path.dirname(target));
    return { kind, bytes: fs.statSync(target).size, signed };
  } finally {
    fs.rmSync(envelope, { force: true });
    for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(`${partial}${suffix}`, { force: true });
  }
}

async function backupSqlite(databaseUrl: string, partial: string): Promise<void> {
  if (!fs.existsSync(databaseUrl)) throw new BackupError(`There is no SQLite database at ${databaseUrl}.`);
  const source = new SQLite(databaseUrl, { fileMustExist: true, timeout: 5000 });
  try {
    // The first step copies 100 pages, every later one the rest at once: a step reads one snapshot,
    // and a write by the server between two steps would start the copy over.
    await source.backup(partial, { progress: ({ totalPages }) => Math.max(totalPages, 100) });
  } finally {
    source.close();
  }
  const copy = new SQLite(partial, { fileMustExist: true });
  try {
    checkSqliteCopy(copy, partial);
    // One self-contained file: no -wal beside it to forget.
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
}

function checkSqliteCopy(db: SQLite.Database, file: string): void {
  const check = db.pragma('quick_check', { simple: true });
  if (check !== 'ok') throw new BackupError(`${file} fails SQLite's quick_check: ${String(check)}`);
  const migrated = db
    .prepare("select count(*) as n from sqlite_master where type = 'table' and name = 'kysely_migration'")
    .get() as { n: number };
  if (migrated.n !== 1) throw new BackupError(`${file} is a SQLite database, but not one of this site.`);
}

async function backupPostgres(databaseUrl: string, partial: string): Promise<void> {
  const { url, env } = withoutPassword(databaseUrl);
  await run('pg_dump', ['--format=custom', '--no-password', `--file=${partial}`, `--dbname=${url}`], env);
  // The archive's table of contents reads back: the dump is whole.
  await run('pg_restore', ['--list', partial], env);
}

/**
 * Puts the backup `file` in place of the database `databaseUrl` names. The site must be stopped:
 * a running one is refused (SQLite: another connection holds the file; PostgreSQL: another
 * connection to the database). First the database's copy is read out of the backup into a file of
 * our own and its signature checked over those bytes (server/db/backup-file.ts): a backup changed
 * after it was made, or unsigned where the site has a secret, is refused before anything is touched.
 * SQLite: the copy is checked, written beside the database and renamed over it, its old -wal and
 * -shm removed first. PostgreSQL: `pg_restore --clean --if-exists --no-owner` in one transaction,
 * into the database (created when missing).
 */
export async function restoreDatabase(
  databaseUrl: string,
  file: string,
  signing: BackupSigning,
): Promise<{ kind: DatabaseKind; signed: boolean; made: string | null }> {
  const kind = databaseKind(databaseUrl);
  const source = path.resolve(file);
  const info = await backupFileInfo(source);
  if (info === null) {
    throw new BackupError(
      `${file} is not a backup made by npm run backup (neither SQLite nor a pg_dump archive).`,
    );
  }
  if (info.kind !== kind) {
    throw new BackupError(
      `${file} is a ${ENGINE[info.kind]} backup, but DATABASE_URL names a ${ENGINE[kind]} database.`,
    );
  }
  const read = (into: string) => readBackupFile(source, info, into, signing);
  if (kind === 'sqlite') await restoreSqlite(databaseUrl, read, source);
  else await restorePostgres(databaseUrl, read);
  return { kind, signed: info.signed, made: info.made };
}

/** Reads the database's copy out of the backup into `into`, checked (readBackupFile). */
type ReadCopy = (into: string) => Promise<void>;

/** The server's connections to PostgreSQL carry this application_name (server/main.ts). */
export const SERVER_APPLICATION_NAME = 'portal-server';

export const SITE_RUNNING =
  'stop every server process of the site (and anything else that has the database open) before restoring';

async function restoreSqlite(databaseUrl: string, read: ReadCopy, source: string): Promise<void> {
  const target = path.resolve(databaseUrl);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const partial = `${target}.restoring-${process.pid}`;
  try {
    await read(partial);
    const copy = new SQLite(partial, { fileMustExist: true });
    try {
      checkSqliteCopy(copy, source);
    } finally {
      copy.close();
    }
    syncFile(partial);
    if (fs.existsSync(target)) refuseIfOpen(target);
    // A -wal left beside the new file would be replayed into it: gone before the rename.
    for (const suffix of ['-wal', '-shm', '-journal']) fs.rmSync(`${target}${suffix}`, { force: true });
    fs.renameSync(partial, target);
    syncFile(path.dirname(target));
  } finally {
    for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(`${partial}${suffix}`, { force: true });
  }
}

/**
 * A running server keeps its connection open, and in WAL mode every open connection holds a lock
 * that an exclusive one cannot take: so an exclusive lock, tried without waiting, says whether
 * anything has the file open. Closing it checkpoints and removes the -wal of a site that stopped.
 */
function refuseIfOpen(target: string): void {
  let db: SQLite.Database | null = null;
  try {
    db = new SQLite(target, { fileMustExist: true, timeout: 0 });
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('ROLLBACK');
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
      throw new BackupError(
        `The SQLite database ${target} is in use (the site is running): ${SITE_RUNNING}.`,
      );
    }
    // Not a database any more (what a restore is for): nothing can be serving from it.
  } finally {
    db?.close();
  }
}

async function restorePostgres(databaseUrl: string, read: ReadCopy): Promise<void> {
  // The archive, read out and checked, in a folder only this user can enter (mkdtemp: 0700).
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-restore-'));
  try {
    const archive = path.join(folder, 'site.pgdump');
    await read(archive);
    await restorePostgresArchive(databaseUrl, archive);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

async function restorePostgresArchive(databaseUrl: string, source: string): Promise<void> {
  await createDatabaseIfMissing(databaseUrl);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string; names: string | null }>(
      `SELECT count(*) AS n, string_agg(DISTINCT coalesce(nullif(application_name, ''), 'unnamed'), ', ') AS names
         FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    const others = Number(rows[0]?.n ?? 0);
    if (others > 0) {
      throw new BackupError(
        `The PostgreSQL database ${client.database} has ${others} other connection(s) (${rows[0]?.names}), so the site is running: ${SITE_RUNNING}.`,
      );
    }
  } finally {
    await client.end();
  }
  const { url, env } = withoutPassword(databaseUrl);
  await run(
    'pg_restore',
    [
      '--clean',
      '--if-exists',
      '--no-owner',
      '--single-transaction',
      '--exit-on-error',
      '--no-password',
      `--dbname=${url}`,
      source,
    ],
    env,
  );
}

async function createDatabaseIfMissing(databaseUrl: string): Promise<void> {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  const maintenance = new URL(databaseUrl);
  maintenance.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: maintenance.toString() });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await admin.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } finally {
    await admin.end();
  }
}

/** The URL without its password, which goes to the tools by PGPASSWORD: a command line is public. */
function withoutPassword(databaseUrl: string): { url: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { url: url.toString(), env: password ? { ...process.env, PGPASSWORD: password } : process.env };
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', (error: Error & { code?: string }) =>
      reject(
        error.code === 'ENOENT'
          ? new BackupError(
              `${command} was not found: install the PostgreSQL client tools (postgresql-client).`,
            )
          : error,
      ),
    );
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new BackupError(`${command} failed (exit ${code}): ${stderr.trim()}`)),
    );
  });
}

/** fsync of a file or a folder: what was written is on the disk before the next step. */
function syncFile(file: string): void {
  const fd = fs.openSync(file, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
