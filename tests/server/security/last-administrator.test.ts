import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LOCAL_POSTGRES_URL,
  api,
  createStaffAccount,
  createTestDatabase,
  login,
  type TestServer,
} from '../../../harness/test-server.ts';
import { startTarget, tally } from '../../../harness/attack.ts';

/**
 * Attack (or accident): two administrators demote each other at the same moment. On PostgreSQL,
 * each change checked only that it was not the caller's own, and both went through: the site was
 * left with no administrator, and nobody could manage staff any more. A role change that would
 * leave no administrator is now refused (409) inside its transaction, with the administrators'
 * rows locked, here raced through two server processes sharing one PostgreSQL database.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let a: TestServer;
let b: TestServer;
beforeAll(async () => {
  database = await createTestDatabase(LOCAL_POSTGRES_URL);
  a = await startTarget({ databaseUrl: database.url });
  b = await startTarget({ databaseUrl: database.url });
});
afterAll(async () => {
  await a?.dispose();
  await b?.dispose();
  await database?.drop();
});

const setRoles = (server: TestServer, token: string, id: number, roles: string[]) =>
  api(server.url, `/portal/staff/accounts/${id}/roles`, { token, method: 'PUT', body: { roles } });

async function adminsLeft(): Promise<number> {
  const rows = await a.ctx.db
    .selectFrom('account_roles')
    .innerJoin('accounts', 'accounts.id', 'account_roles.account_id')
    .select('accounts.id')
    .where('account_roles.role', '=', 'admin')
    .where('accounts.deleted_date', 'is', null)
    .execute();
  return rows.length;
}

let serial = 0;
/** A new administrator, signed in to the console. */
async function newAdmin(): Promise<{ id: number; token: string }> {
  const username = `admin-${process.pid}-${++serial}`;
  const id = await createStaffAccount(a, username, 'admin-losenord-9', ['admin']);
  return { id, token: (await login(a.url, username, 'admin-losenord-9', 'portal-staff')).access_token };
}

describe('the last administrator', () => {
  it('stays when the only two demote each other at once, round after round', async () => {
    let survivor = await newAdmin();
    // The demo administrator steps aside, so that two are left to race.
    const demo = await a.ctx.db
      .selectFrom('accounts')
      .select('id')
      .where('username', '=', 'admin')
      .executeTakeFirstOrThrow();
    expect((await setRoles(a, survivor.token, demo.id, ['counsellor'])).status).toBe(200);

    for (let round = 0; round < 5; round++) {
      const other = await newAdmin();
      expect(await adminsLeft()).toBe(2);
      // Each through another process: neither sees the other's change before its own commits.
      const answers = await Promise.all([
        setRoles(a, survivor.token, other.id, ['counsellor']),
        setRoles(b, other.token, survivor.id, ['counsellor']),
      ]);
      const statuses = tally(answers.map((answer) => answer.status));
      expect(statuses[200]).toBe(1);
      expect(await adminsLeft()).toBe(1);
      const refused = answers.find((answer) => answer.status === 409);
      if (refused) expect(refused.body).toMatchObject({ error: 'conflict', status: 'last_admin' });
      survivor = answers[0]!.status === 200 ? survivor : other;
    }
  });

  it('is demoted by a new administrator, who is then the one left', async () => {
    const admins = await adminsLeft();
    expect(admins).toBe(1);
    const survivor = await a.ctx.db
      .selectFrom('account_roles')
      .select('account_id')
      .where('role', '=', 'admin')
      .executeTakeFirstOrThrow();
    // A demotion that leaves another administrator goes through.
    const second = await newAdmin();
    expect((await setRoles(b, second.token, survivor.account_id, ['group_leader'])).status).toBe(200);
    expect(await adminsLeft()).toBe(1);
  });
});
