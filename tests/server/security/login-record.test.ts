import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOGIN_POLICY } from '../../../server/auth/login-throttle.ts';
import { runMaintenance } from '../../../server/jobs/maintenance.ts';
import { login, type TestServer } from '../../../harness/test-server.ts';
import { callFrom, deviceOf, registerChild, startTarget, tryLogin } from '../../../harness/attack.ts';

/**
 * Attack, seen afterwards: nothing told which account had been guessed at or braked, or when. Now
 * failed logins and brake refusals are recorded per account, hour and kind - no username, password
 * or address - and an administrator reads them through GET /portal/staff/login-record.
 */
let server: TestServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await server?.dispose();
  server = undefined;
});

interface Row {
  accountId: number;
  kind: string;
  hour: string;
  count: number;
  firstAt: string;
  lastAt: string;
  network: string | null;
}

async function record(url: string, query = ''): Promise<Row[]> {
  const admin = (await login(url, 'admin', 'admin-losenord', 'portal-staff')).access_token;
  const answer = await callFrom(url, `/portal/staff/login-record${query}`, { token: admin });
  expect(answer.status).toBe(200);
  return (answer.body as { value: Row[] }).value;
}

const accountIdOf = (token: string) =>
  Number((JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sub: string }).sub);

describe('the login record', () => {
  it('shows an attack on one child’s account, and nothing of another’s', async () => {
    server = await startTarget({
      build: { loginPolicy: { username: { free: 12, baseMs: 60_000, maxMs: 900_000 } } },
    });
    const url = server.url;
    const target = await registerChild(server, 'mal');
    const bystander = await registerChild(server, 'granne');
    const targetId = accountIdOf(target.token);
    const copy = deviceOf(await tryLogin(url, target.username, target.password, '198.51.100.1'));
    const before = Date.now();

    // One address hammers the account, then many addresses (the username brake arms), and someone
    // guesses with a copy of the device token until the token's own counter waits.
    for (let i = 0; i < LOGIN_POLICY.pair.free + 3; i++) {
      await tryLogin(url, target.username, `fel-${i}`, '203.0.113.9');
    }
    for (let i = 0; i < 14; i++) await tryLogin(url, target.username, 'fel', `192.0.2.${i + 1}`);
    for (let i = 0; i < LOGIN_POLICY.device.free + 1; i++) {
      await tryLogin(url, target.username, `kopia-${i}`, `10.1.1.${i + 1}`, undefined, copy);
    }
    // The child comes home and signs in, past the armed brake.
    expect((await tryLogin(url, target.username, target.password, '198.51.100.1')).status).toBe(200);
    // The bystander signs in without a fault.
    expect((await tryLogin(url, bystander.username, bystander.password, '198.51.100.2')).status).toBe(200);

    const rows = await record(url);
    const mine = rows.filter((r) => r.accountId === targetId);
    const kinds = Object.fromEntries(mine.map((r) => [r.kind, r]));
    expect(Object.keys(kinds).sort()).toEqual(
      ['brake_passed', 'device_token_braked', 'refused_pair', 'refused_username', 'wrong_password'].sort(),
    );
    // Every wrong password that reached the check (the pair's free ones, 12 from many addresses
    // before the brake, the copy's free ones) and the refusals, with their times.
    expect(kinds.wrong_password!.count).toBeGreaterThanOrEqual(LOGIN_POLICY.pair.free + 12);
    expect(kinds.refused_pair!.count).toBeGreaterThanOrEqual(3);
    expect(kinds.refused_username!.count).toBeGreaterThanOrEqual(2);
    expect(kinds.device_token_braked!.count).toBeGreaterThanOrEqual(1);
    for (const row of mine) {
      expect(Date.parse(row.firstAt)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(row.lastAt)).toBeGreaterThanOrEqual(Date.parse(row.firstAt));
      expect(row.network).toMatch(/^[\w-]{12}$/);
    }
    // The same network (one /24) shows as the same digest; another as another.
    const refusedPair = kinds.refused_pair!.network;
    const wrongFromMany = kinds.refused_username!.network;
    expect(refusedPair).not.toBe(wrongFromMany);
    // Nothing of the bystander, who made no mistake.
    expect(rows.filter((r) => r.accountId !== targetId)).toEqual([]);
    // One account asked for, one kind.
    expect(await record(url, `?accountId=${accountIdOf(bystander.token)}`)).toEqual([]);
    expect((await record(url, `?accountId=${targetId}&kind=refused_pair`)).map((r) => r.kind)).toEqual([
      'refused_pair',
    ]);

    // No username, password or address, in the answer or in the table.
    const stored = JSON.stringify(await server.ctx.db.selectFrom('login_record').selectAll().execute());
    for (const text of [JSON.stringify(rows), stored]) {
      expect(text).not.toContain(target.username);
      expect(text).not.toContain('fel-');
      expect(text).not.toContain('203.0.113');
      expect(text).not.toContain('192.0.2');
    }
  });

  it('is read by administrators only, with a query that validates', async () => {
    server = await startTarget();
    const url = server.url;
    const counsellor = (await login(url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token;
    const child = (await login(url, 'demo', 'demo-losenord')).access_token;
    expect((await callFrom(url, '/portal/staff/login-record', {})).status).toBe(401);
    expect((await callFrom(url, '/portal/staff/login-record', { token: child })).status).toBe(403);
    expect((await callFrom(url, '/portal/staff/login-record', { token: counsellor })).status).toBe(403);
    const admin = (await login(url, 'admin', 'admin-losenord', 'portal-staff')).access_token;
    for (const query of ['?kind=everything', '?accountId=x', '?take=100000']) {
      expect((await callFrom(url, `/portal/staff/login-record${query}`, { token: admin })).status).toBe(400);
    }
  });

  it('goes with an erased account, and is pruned after its days', async () => {
    server = await startTarget();
    const url = server.url;
    const child = await registerChild(server, 'glomd');
    await tryLogin(url, child.username, 'fel-losenord', '203.0.113.40');
    const other = await registerChild(server, 'kvar');
    await tryLogin(url, other.username, 'fel-losenord', '203.0.113.41');
    expect(new Set((await record(url)).map((r) => r.accountId)).size).toBe(2);
    expect((await callFrom(url, '/portal/deleteContact', { token: child.token, body: {} })).status).toBe(200);
    expect((await record(url)).map((r) => r.accountId)).toEqual([accountIdOf(other.token)]);
    // Its device tokens go with it too.
    const devices = await server.ctx.db.selectFrom('login_devices').select('subject').execute();
    expect(new Set(devices.map((d) => d.subject))).toEqual(new Set([`account:${accountIdOf(other.token)}`]));
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 31 * 24 * 3600_000 });
    expect(await runMaintenance(server.ctx)).toEqual([]);
    expect(await server.ctx.db.selectFrom('login_record').selectAll().execute()).toEqual([]);
  });
});
