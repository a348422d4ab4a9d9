import type { AppContext } from '../context.ts';
import { inChunks } from '../db/database.ts';
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
 */
export async function eraseLoggedErasuresAgain(ctx: AppContext): Promise<ErasureReplay> {
  const file = erasureLogPath(ctx.config.databaseUrl);
  if (!file) return { file, erasedAgain: 0, unreadable: 0 };
  const { entries, unreadable } = await readErasureLog(file);
  if (entries.length === 0) return { file, erasedAgain: 0, unreadable };
  const site = await siteOf(ctx.db);
  // Per account, its latest erasure: an account made after it is another person who got the same id
  // (a restore puts the id counters back too), never to be touched.
  const erasedAt = new Map<number, string>();
  for (const e of entries) {
    if (e.site !== site) continue;
    const seen = erasedAt.get(e.account);
    if (!seen || e.at > seen) erasedAt.set(e.account, e.at);
  }
  let erasedAgain = 0;
  for (const chunk of inChunks([...erasedAt.keys()])) {
    // Still a person: not marked erased, or still holding a way to sign in. An erased account keeps
    // neither, since its erasure clears both in one transaction.
    const restored = await ctx.db
      .selectFrom('accounts')
      .select(['id', 'contact_id', 'created_date'])
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
      if (account.created_date > erasedAt.get(account.id)!) continue;
      await eraseAccount(ctx, account.id, account.contact_id, { logged: true });
      erasedAgain++;
    }
  }
  return { file, erasedAgain, unreadable };
}
