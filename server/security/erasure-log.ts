import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { databaseKind } from '../db/database-kind.ts';

/**
 * The erasure log: one line per account erasure, kept outside the database so that no backup holds
 * it and no restore takes it back. A backup taken before an erasure and restored after it brings the
 * person back; the next start reads this log and erases them again (server/jobs/erasure-replay.ts,
 * docs/operations.md "Backup and restore"). A line holds the account id, the time and the site, never
 * anything about the person. Append-only: nothing here rewrites or shortens the file.
 */
export interface ErasureLogEntry {
  /** The erased account's id in its site's database. */
  account: number;
  /** When the erasure was asked for (ISO 8601). */
  at: string;
  /** The site the id belongs to: see siteOf. */
  site: string;
}

/** For PostgreSQL, which has no file of its own to sit beside. */
export const DEFAULT_POSTGRES_ERASURE_LOG = 'data/erasure-log.jsonl';

/**
 * Where the log of the database `databaseUrl` is: ERASURE_LOG_FILE, or beside the SQLite file
 * (`data/app.db.erasure-log.jsonl`), or DEFAULT_POSTGRES_ERASURE_LOG. Null for an in-memory
 * database, which no restore can bring back.
 */
export function erasureLogPath(databaseUrl: string, env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.ERASURE_LOG_FILE) return path.resolve(env.ERASURE_LOG_FILE);
  if (databaseKind(databaseUrl) === 'postgres') return path.resolve(DEFAULT_POSTGRES_ERASURE_LOG);
  if (databaseUrl === ':memory:' || databaseUrl === '') return null;
  return `${path.resolve(databaseUrl)}.erasure-log.jsonl`;
}

const sites = new WeakMap<Db, Promise<string>>();

/**
 * A site's name in the log: when its database was first migrated. A backup and every copy restored
 * from it carry the same time, and another site's database (a fresh one on the same log, a test's)
 * does not, so a line is never applied to an account that only shares its id.
 */
export function siteOf(db: Db): Promise<string> {
  let site = sites.get(db);
  if (!site) {
    site = sql<{ timestamp: string }>`select "timestamp" from kysely_migration where name = ${'0001-initial'}`
      .execute(db)
      .then(({ rows }) => {
        const first = rows[0]?.timestamp;
        if (!first)
          throw new Error('The database has no first migration: it is not a migrated site database');
        return String(first);
      });
    site.catch(() => sites.delete(db));
    sites.set(db, site);
  }
  return site;
}

/**
 * Logs an erasure before it is made, durably (fsync of the file, and of its folder when the file is
 * new): a person who asked to be erased stays erased even if the process dies between the two. Throws
 * when the log cannot be written, so no erasure goes unlogged.
 */
export async function logErasure(
  db: Db,
  databaseUrl: string,
  account: number,
  at = new Date(),
): Promise<void> {
  const file = erasureLogPath(databaseUrl);
  if (!file) return;
  const entry: ErasureLogEntry = { account, at: at.toISOString(), site: await siteOf(db) };
  await fs.mkdir(path.dirname(file), { recursive: true });
  const created = await fs.access(file).then(
    () => false,
    () => true,
  );
  // O_APPEND: one small write per line, so lines of several processes never interleave.
  const handle = await fs.open(file, 'a', 0o600);
  try {
    await handle.write(`${JSON.stringify(entry)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  if (created) await syncFolder(path.dirname(file));
}

async function syncFolder(folder: string): Promise<void> {
  const handle = await fs.open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Every well-formed line of the log; none when there is no log yet. A line cut short (the machine
 * stopped inside a write) is counted, not fatal: its erasure had not begun.
 */
export async function readErasureLog(
  file: string,
): Promise<{ entries: ErasureLogEntry[]; unreadable: number }> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return { entries: [], unreadable: 0 };
    throw error;
  }
  const entries: ErasureLogEntry[] = [];
  let unreadable = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const entry = parseEntry(line);
    if (entry) entries.push(entry);
    else unreadable++;
  }
  return { entries, unreadable };
}

function parseEntry(line: string): ErasureLogEntry | null {
  try {
    const value = JSON.parse(line) as Partial<ErasureLogEntry>;
    if (!Number.isInteger(value.account) || typeof value.site !== 'string' || typeof value.at !== 'string')
      return null;
    return { account: value.account!, at: value.at, site: value.site };
  } catch {
    return null;
  }
}
