import { afterEach, describe, expect, it } from 'vitest';
import { insertAccounts } from '../../../server/auth/accounts.ts';
import { migrateToLatest, openDatabase, type OpenDatabase } from '../../../server/db/database.ts';
import { createTestDatabase } from '../../../harness/test-server.ts';

let open: OpenDatabase | undefined;
let drop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await open?.close();
  await drop?.();
});

describe('insertAccounts, the one way an account is made', () => {
  it('gives each of many accounts its own contact, name, login and role, in the order given', async () => {
    const database = await createTestDatabase();
    drop = database.drop;
    open = openDatabase(database.url);
    await migrateToLatest(open);
    // More than one statement's worth, with names that repeat: order, not names, ties the rows.
    const wanted = Array.from({ length: 1_203 }, (_, i) =>
      i % 3 === 0
        ? { name: 'Kim', roles: ['participant' as const], login: { codeDigest: `digest-${i}` } }
        : {
            name: `barn-${i}`,
            roles: ['child' as const],
            login: { username: `barn-${i}`, passwordHash: `hash-${i}` },
          },
    );
    const made = await open.db.transaction().execute((trx) => insertAccounts(trx, wanted));
    expect(made).toHaveLength(wanted.length);
    const rows = await open.db
      .selectFrom('accounts')
      .innerJoin('contacts', 'contacts.id', 'accounts.contact_id')
      .innerJoin('account_roles', 'account_roles.account_id', 'accounts.id')
      .select([
        'accounts.id',
        'accounts.contact_id',
        'contacts.name',
        'accounts.username',
        'accounts.password_hash',
        'accounts.personal_code_digest',
        'account_roles.role',
      ])
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    made.forEach(({ accountId, contactId }, i) => {
      const row = byId.get(accountId);
      const { name, roles, login } = wanted[i]!;
      expect(row).toEqual({
        id: accountId,
        contact_id: contactId,
        name,
        username: 'username' in login ? login.username : null,
        password_hash: 'username' in login ? login.passwordHash : null,
        personal_code_digest: 'codeDigest' in login ? login.codeDigest : null,
        role: roles[0],
      });
    });
    expect(rows).toHaveLength(wanted.length);
  });
});
