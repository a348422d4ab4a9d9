import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { keepStatements } from '../../../server/db/database.ts';

const opened: SQLite.Database[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
});

/** A real in-memory SQLite database, its prepare() counted, behind the kept-statements wrapper. */
function database(size?: number) {
  const sqlite = new SQLite(':memory:');
  opened.push(sqlite);
  const prepared: string[] = [];
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((source: string) => {
    prepared.push(source);
    return prepare(source);
  }) as typeof sqlite.prepare;
  return { sqlite, kept: keepStatements(sqlite, size), prepared };
}

describe('SQLite statements kept by their SQL', () => {
  it('prepares a query once however often Kysely runs it, with its parameters each time', async () => {
    const { kept, prepared } = database();
    const db = new Kysely<{ t: { id: number; name: string } }>({
      dialect: new SqliteDialect({ database: kept }),
    });
    await sql`CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)`.execute(db);
    for (const [id, name] of [
      [1, 'ett'],
      [2, 'två'],
    ] as const)
      await db.insertInto('t').values({ id, name }).execute();
    const names = [];
    for (const id of [1, 2, 1]) {
      names.push((await db.selectFrom('t').select('name').where('id', '=', id).executeTakeFirst())?.name);
    }
    expect(names).toEqual(['ett', 'två', 'ett']);
    const selects = prepared.filter((s) => s.startsWith('select'));
    const inserts = prepared.filter((s) => s.startsWith('insert'));
    expect([selects.length, inserts.length]).toEqual([1, 1]);
    await db.destroy();
  });

  it('keeps at most its size, dropping the least recently used', () => {
    const { kept, prepared } = database(2);
    kept.prepare('SELECT 1');
    kept.prepare('SELECT 2');
    kept.prepare('SELECT 1'); // used again: now the most recent
    kept.prepare('SELECT 3'); // drops SELECT 2
    kept.prepare('SELECT 1');
    kept.prepare('SELECT 2');
    expect(prepared).toEqual(['SELECT 1', 'SELECT 2', 'SELECT 3', 'SELECT 2']);
  });

  it('answers from the schema as it is now after a migration changed it', () => {
    const { sqlite, kept } = database();
    sqlite.exec('CREATE TABLE t (a INTEGER)');
    sqlite.exec('INSERT INTO t VALUES (1)');
    const statement = kept.prepare('SELECT * FROM t');
    expect(statement.all([])).toEqual([{ a: 1 }]);
    sqlite.exec('ALTER TABLE t ADD COLUMN b TEXT');
    expect(kept.prepare('SELECT * FROM t')).toBe(statement);
    expect(statement.all([])).toEqual([{ a: 1, b: null }]);
  });
});
