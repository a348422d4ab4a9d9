import type { Db } from '../db/database.ts';
import type { Role } from './principal.ts';
import type { TokenSubject } from './tokens.ts';
import { burnPasswordCheck, personalCodeDigest, verifyPassword } from './passwords.ts';

export async function loadSubject(db: Db, accountId: number): Promise<TokenSubject | null> {
  const account = await db
    .selectFrom('accounts')
    .innerJoin('contacts', 'contacts.id', 'accounts.contact_id')
    .select(['accounts.id', 'accounts.contact_id', 'contacts.name', 'accounts.deleted_date'])
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
  };
}

/** Username and password; unknown usernames cost as much time as wrong passwords. */
export async function checkPassword(db: Db, username: string, password: string): Promise<number | null> {
  const row = await db
    .selectFrom('accounts')
    .select(['id', 'password_hash'])
    .where('username', '=', username.trim().toLowerCase())
    .where('deleted_date', 'is', null)
    .executeTakeFirst();
  if (!row?.password_hash) {
    await burnPasswordCheck(password);
    return null;
  }
  return (await verifyPassword(password, row.password_hash)) ? row.id : null;
}

/** A group participant's personal code, which is identifier and secret at once. */
export async function checkPersonalCode(db: Db, code: string): Promise<number | null> {
  const row = await db
    .selectFrom('accounts')
    .select('id')
    .where('personal_code_digest', '=', await personalCodeDigest(code))
    .where('deleted_date', 'is', null)
    .executeTakeFirst();
  return row?.id ?? null;
}
