import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { createTestDatabase } from '../../../harness/test-server.ts';

/**
 * What someone who can write to the backups does to one, knowing its format as an operator does
 * (docs/operations.md): finds the database's copy in the file, changes it with the engine's own
 * tools, and puts it back with whatever came before and after it. They do not have the site's
 * SIGNING_KEY_SECRET, so the signature after the copy stays the one it was made with.
 */

const SQLITE_MAGIC = 'SQLite format 3\0';
const POSTGRES_MAGIC = 'PGDMP';

/** The file in three: what precedes the database's copy, the copy, and what follows it. */
function split(bytes: Buffer) {
  const sqlite = bytes.indexOf(SQLITE_MAGIC, 0, 'latin1');
  const start = sqlite >= 0 ? sqlite : bytes.indexOf(POSTGRES_MAGIC, 0, 'latin1');
  if (start < 0) throw new Error('no database copy in the backup');
  const before = bytes.subarray(0, start);
  // A header that gives the copy's length (a signed backup's); else the copy runs to the end.
  const declared = /"bytes":(\d+)/.exec(before.toString('latin1'));
  const end = declared ? start + Number(declared[1]) : bytes.length;
  return {
    before,
    copy: bytes.subarray(start, end),
    after: bytes.subarray(end),
    engine: sqlite >= 0 ? 'sqlite' : 'postgres',
  };
}

/** Runs `statements` (SQL) on the database inside the backup `file` and writes the file back. */
export async function editDatabaseInBackup(file: string, statements: string): Promise<void> {
  const { before, copy, after, engine } = split(fs.readFileSync(file));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-backup-edit-'));
  try {
    const edited =
      engine === 'sqlite' ? editSqlite(copy, work, statements) : await editPostgres(copy, work, statements);
    const header = before.toString('latin1').replace(/"bytes":\d+/, `"bytes":${edited.length}`);
    fs.writeFileSync(file, Buffer.concat([Buffer.from(header, 'latin1'), edited, after]));
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function editSqlite(copy: Buffer, work: string, statements: string): Buffer {
  const file = path.join(work, 'copy.db');
  fs.writeFileSync(file, copy);
  const db = new SQLite(file);
  try {
    db.exec(statements);
  } finally {
    db.close();
  }
  return fs.readFileSync(file);
}

/** pg_restore into a database of its own, the statements, pg_dump again. */
async function editPostgres(copy: Buffer, work: string, statements: string): Promise<Buffer> {
  const archive = path.join(work, 'copy.pgdump');
  fs.writeFileSync(archive, copy);
  const scratch = await createTestDatabase('postgres://postgres@127.0.0.1:5432/postgres');
  try {
    tool('pg_restore', ['--no-owner', '--exit-on-error', `--dbname=${scratch.url}`, archive]);
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    try {
      await client.query(statements);
    } finally {
      await client.end();
    }
    const edited = path.join(work, 'edited.pgdump');
    tool('pg_dump', ['--format=custom', `--file=${edited}`, `--dbname=${scratch.url}`]);
    return fs.readFileSync(edited);
  } finally {
    await scratch.drop();
  }
}

function tool(command: string, args: string[]): void {
  const run = spawnSync(command, args, { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${command} failed: ${run.stderr}`);
}

/** Changes one byte of the file, in place. */
export function flipByte(file: string, position: number): void {
  const bytes = fs.readFileSync(file);
  bytes[position] = bytes[position]! ^ 0x20;
  fs.writeFileSync(file, bytes);
}

/** Where the database's copy is in the backup file. */
export function copyRange(file: string): { start: number; length: number } {
  const { before, copy } = split(fs.readFileSync(file));
  return { start: before.length, length: copy.length };
}

/** Moves the date in the backup's header (when it has one) a year on; answers whether it had one. */
export function editHeaderDate(file: string): boolean {
  const bytes = fs.readFileSync(file);
  const { before } = split(bytes);
  const header = before.toString('latin1');
  const year = /"made":"(\d{4})/.exec(header);
  if (!year) return false;
  const edited = header.replace(year[0], `"made":"${Number(year[1]) + 1}`);
  fs.writeFileSync(file, Buffer.concat([Buffer.from(edited, 'latin1'), bytes.subarray(before.length)]));
  return true;
}
