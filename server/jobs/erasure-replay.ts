import { sql } from 'kysely';
import type { AppContext } from '../context.ts';
import { inChunks, type Db } from '../db/database.ts';
import { databaseKind, type DatabaseKind } from '../db/database-kind.ts';
import { eraseAccount } from '../conversations/erasure.ts';
import { erasureLogPath, readErasureLog, siteOf } from '../security/erasure-log.ts';

export interface ErasureReplay {
  /** The log read, or null when the database has none (in memory). */
  file: string | null;
  /** Accounts of this site the log names that still held the person, now erased again. */
  erasedAgain: number;
  /** Lines of the log that could not be read (a write cut short by a crash). */
  unreadable: number;
}

/**
 * Erases again, at start, every account of the erasure log (server/security/erasure-log.ts) that
 * this database still holds as a person: the database was restored from a backup taken before the
 * erasure. Through eraseAccount itself, so a restored person goes exactly as they went the first
 * time. Accounts of other sites in the same log are left alone. Run before the server listens.
 *
 * Nothing of the restored rows decides it but the account's id: no date (a backup's dates can be
 * edited to make an account look newer than its erasure; docs/decisions.md). An id the log names is
 * never handed out again instead: the accounts' id counter is first moved past every logged id, so
 * an account the log names is the person who was erased, and a newcomer after a restore (which
 * puts the counter back) gets an id of their own.
 */
export async function eraseLoggedErasuresAgain(ctx: AppContext): Promise<ErasureReplay> {
  const file = erasureLogPath(ctx.config.databaseUrl);
  if (!file) return { file, erasedAgain: 0, unreadable: 0 };
  const { entries, unreadable } = await readErasureLog(file);
  if (entries.length === 0) return { file, erasedAgain: 0, unreadable };
  const site = await siteOf(ctx.db);
  const logged = [...new Set(entries.filter((e) => e.site === site).map((e) => e.account))];
  if (logged.length === 0) return { file, erasedAgain: 0, unreadable };
  const highest = logged.reduce((a, b) => Math.max(a, b));
  await keepAccountIdsAbove(ctx.db, highest, databaseKind(ctx.config.databaseUrl));
  let erasedAgain = 0;
  for (const chunk of inChunks(logged)) {
    // Still a person: not marked erased, or still holding a way to sign in. An erased account keeps
    // neither, since its erasure clears both in one transaction.
    const restored = await ctx.db
      .selectFrom('accounts')
      .select(['id', 'contact_id'])
      .where('id', 'in', chunk)
      .where((eb) =>
        eb.or([
          eb('deleted_date', 'is', null),
          eb('username', 'is not', null),
          eb('password_hash', 'is not', null),
          eb('personal_code_digest', 'is not', null),
        ]),
      )
      .execute();
    for (const account of restored) {
      await eraseAccount(ctx, account.id, account.contact_id, { logged: true });
      erasedAgain++;
    }
  }
  return { file, erasedAgain, unreadable };
}

/**
 * Moves the accounts' id counter to at least `highest`, never back: the next account made gets a
 * higher id. Several processes starting at once may each run it; it only ever raises the counter.
 */
async function keepAccountIdsAbove(db: Db, highest: number, kind: DatabaseKind): Promise<void> {
  if (kind === 'postgres') {
    await sql`select setval(seq, ${highest})
                from (select pg_get_serial_sequence('accounts', 'id')::regclass as seq) s
               where coalesce(pg_sequence_last_value(seq), 0) < ${highest}`.execute(db);
    return;
  }
  // SQLite's AUTOINCREMENT keeps its counter in sqlite_sequence (a row once an account was made).
  await db.transaction().execute(async (trx) => {
    await sql`insert into sqlite_sequence (name, seq)
              select 'accounts', 0 where not exists (select 1 from sqlite_sequence where name = 'accounts')`.execute(
      trx,
    );
    await sql`update sqlite_sequence set seq = ${highest} where name = 'accounts' and seq < ${highest}`.execute(
      trx,
    );
  });
}
