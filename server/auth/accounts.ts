import { inChunks, nowIso, type Db } from '../db/database.ts';
import type { Role } from './principal.ts';
import type { TokenSubject } from './tokens.ts';
import { burnPasswordCheck, personalCodeDigest, verifyPassword } from './passwords.ts';

export async function loadSubject(db: Db, accountId: number): Promise<TokenSubject | null> {
  const account = await db
    .selectFrom('accounts')
    .innerJoin('contacts', 'contacts.id', 'accounts.contact_id')
    .select([
      'accounts.id',
      'accounts.contact_id',
      'contacts.name',
      'accounts.deleted_date',
      'accounts.token_generation',
    ])
    .where('accounts.id', '=', accountId)
    .executeTakeFirst();
  if (!account || account.deleted_date) return null;
  const roles = await db
    .selectFrom('account_roles')
    .select('role')
    .where('account_id', '=', accountId)
    .execute();
  return {
    accountId: account.id,
    contactId: account.contact_id,
    name: account.name,
    roles: roles.map((r) => r.role as Role),
    tokenGeneration: account.token_generation,
  };
}

/**
 * The account credentials opened, with its token generation read together with the secret they
 * matched: a token is issued with that generation, so a password changed during the (slow) check
 * makes the token worthless at once instead of letting the old password open a new session.
 */
export interface CheckedAccount {
  accountId: number;
  tokenGeneration: number;
}

/** Username and password; unknown usernames cost as much time as wrong passwords. */
export async function checkPassword(
  db: Db,
  username: string,
  password: string,
): Promise<CheckedAccount | null> {
  const row = await db
    .selectFrom('accounts')
    .select(['id', 'password_hash', 'token_generation'])
    .where('username', '=', username.trim().toLowerCase())
    .where('deleted_date', 'is', null)
    .executeTakeFirst();
  if (!row?.password_hash) {
    await burnPasswordCheck(password);
    return null;
  }
  if (!(await verifyPassword(password, row.password_hash))) return null;
  return { accountId: row.id, tokenGeneration: row.token_generation };
}

/** The account a username names, if any (for the known-good address check, before any password work). */
export async function accountIdOf(db: Db, username: string): Promise<number | null> {
  const row = await db
    .selectFrom('accounts')
    .select('id')
    .where('username', '=', username.trim().toLowerCase())
    .where('deleted_date', 'is', null)
    .executeTakeFirst();
  return row?.id ?? null;
}

/** A group participant's personal code, which is identifier and secret at once. */
export async function checkPersonalCode(db: Db, code: string): Promise<CheckedAccount | null> {
  const row = await db
    .selectFrom('accounts')
    .select(['id', 'token_generation'])
    .where('personal_code_digest', '=', await personalCodeDigest(code))
    .where('deleted_date', 'is', null)
    .executeTakeFirst();
  return row ? { accountId: row.id, tokenGeneration: row.token_generation } : null;
}

/** The standing accounts that hold `role` (a deleted one holds none). */
export async function accountsWithRole(db: Db, role: Role): Promise<number[]> {
  const rows = await db
    .selectFrom('account_roles')
    .innerJoin('accounts', 'accounts.id', 'account_roles.account_id')
    .select('account_roles.account_id')
    .where('account_roles.role', '=', role)
    .where('accounts.deleted_date', 'is', null)
    .execute();
  return rows.map((r) => r.account_id);
}

/** A new account: its contact's name, its roles and exactly one way in. */
export interface NewAccount {
  name: string;
  roles: readonly Role[];
  /** A username with its password hash (hashPassword), or a personal code's digest (personalCodeDigest). */
  login: { username: string; passwordHash: string } | { codeDigest: string };
  /** When it was made; now unless given (demo and benchmark data made "earlier"). */
  createdDate?: string;
}

/**
 * The one way an account is made: each with its contact and its roles, in as few statements as
 * the database takes. Answers the ids in the order given. Run it in a transaction where a failure
 * must leave nothing (a taken username fails on the unique key).
 */
export async function insertAccounts(
  db: Db,
  accounts: readonly NewAccount[],
): Promise<Array<{ accountId: number; contactId: number }>> {
  const made: Array<{ accountId: number; contactId: number }> = [];
  for (const part of inChunks(accounts)) {
    const created = part.map((a) => a.createdDate ?? nowIso());
    // Ids are drawn in the order the rows are written; RETURNING may list them in another.
    const contacts = (
      await db
        .insertInto('contacts')
        .values(part.map((a, i) => ({ name: a.name, created_date: created[i]! })))
        .returning('id')
        .execute()
    ).sort((a, b) => a.id - b.id);
    const rows = await db
      .insertInto('accounts')
      .values(
        part.map(({ login }, i) => ({
          contact_id: contacts[i]!.id,
          username: 'username' in login ? login.username : null,
          password_hash: 'username' in login ? login.passwordHash : null,
          personal_code_digest: 'codeDigest' in login ? login.codeDigest : null,
          created_date: created[i]!,
        })),
      )
      .returning(['id', 'contact_id'])
      .execute();
    const accountOf = new Map(rows.map((row) => [row.contact_id, row.id]));
    const ids = contacts.map((c) => ({ accountId: accountOf.get(c.id)!, contactId: c.id }));
    const roles = part.flatMap((a, i) => a.roles.map((role) => ({ account_id: ids[i]!.accountId, role })));
    for (const roleRows of inChunks(roles)) await db.insertInto('account_roles').values(roleRows).execute();
    made.push(...ids);
  }
  return made;
}
