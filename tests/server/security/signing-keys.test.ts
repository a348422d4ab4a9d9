import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeProtectedHeader } from 'jose';
import { RETIRED_KEY_GRACE_MS } from '../../../server/auth/keys.ts';
import { runMaintenance } from '../../../server/jobs/maintenance.ts';
import { api, createTestDatabase, login, type TestServer } from '../../../harness/test-server.ts';
import { startTarget } from '../../../harness/attack.ts';

/**
 * Attack: reading the signing key out of a database copy. The private key lay in the database in
 * clear, so a leaked backup could mint any token. With SIGNING_KEY_SECRET it is now encrypted at
 * rest; keys rotate, and a retired key keeps verifying until the tokens it signed have ended.
 */
const databases: Array<Awaited<ReturnType<typeof createTestDatabase>>> = [];
const servers: TestServer[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(servers.splice(0).map((s) => s.dispose()));
  await Promise.all(databases.splice(0).map((d) => d.drop()));
});

async function site(secret?: string, databaseUrl?: string) {
  let url = databaseUrl;
  if (!url) {
    const database = await createTestDatabase();
    databases.push(database);
    url = database.url;
  }
  const server = await startTarget({ databaseUrl: url, config: { signingKeySecret: secret } });
  servers.push(server);
  return server;
}

const kidOf = (token: string) => decodeProtectedHeader(token).kid;
const accounts = (server: TestServer, token: string) => api(server.url, '/portal/accounts', { token });

describe('signing keys', () => {
  it('are encrypted at rest with SIGNING_KEY_SECRET, and the site will not start without it', async () => {
    const first = await site('hemlig-nyckel-for-signering');
    const rows = await first.ctx.db.selectFrom('signing_keys').selectAll().execute();
    expect(rows.every((r) => r.private_jwk.startsWith('enc:v1:'))).toBe(true);
    expect(JSON.stringify(rows)).not.toMatch(/"d"/);
    const token = (await login(first.url, 'demo', 'demo-losenord')).access_token;
    const url = first.databaseUrl;
    await first.dispose();
    servers.splice(0);

    await expect(site(undefined, url)).rejects.toThrow(/SIGNING_KEY_SECRET/);
    await expect(site('fel-nyckel', url)).rejects.toThrow(/does not decrypt/);
    const again = await site('hemlig-nyckel-for-signering', url);
    expect((await accounts(again, token)).status).toBe(200);
  });

  it('found in clear are encrypted once a secret is given', async () => {
    const plain = await site();
    expect(
      (await plain.ctx.db.selectFrom('signing_keys').select('private_jwk').execute())[0]!.private_jwk,
    ).toMatch(/^\{/);
    const url = plain.databaseUrl;
    await plain.dispose();
    servers.splice(0);
    const encrypted = await site('ny-hemlig-nyckel', url);
    const rows = await encrypted.ctx.db.selectFrom('signing_keys').select('private_jwk').execute();
    expect(rows.every((r) => r.private_jwk.startsWith('enc:v1:'))).toBe(true);
  });

  it('rotate: new tokens get the new key, old ones verify until their grace ends, in every process', async () => {
    const a = await site('rotationsnyckel');
    const b = await site('rotationsnyckel', a.databaseUrl);
    const before = (await login(a.url, 'demo', 'demo-losenord')).access_token;
    const oldKid = kidOf(before);
    const newKid = await a.ctx.keys.rotate();
    expect(newKid).not.toBe(oldKid);
    const after = (await login(a.url, 'demo', 'demo-losenord')).access_token;
    expect(kidOf(after)).toBe(newKid);
    // B has not reloaded: an unknown kid makes it look again.
    expect((await accounts(b, after)).status).toBe(200);
    expect((await accounts(b, before)).status).toBe(200);
    const jwks = (await (await fetch(`${a.url}/.well-known/openid-configuration/jwks`)).json()) as {
      keys: Array<{ kid: string }>;
    };
    expect(jwks.keys.map((k) => k.kid).sort()).toEqual([oldKid, newKid].sort());

    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + RETIRED_KEY_GRACE_MS + 60_000 });
    await runMaintenance(a.ctx);
    const later = (await (await fetch(`${a.url}/.well-known/openid-configuration/jwks`)).json()) as {
      keys: Array<{ kid: string }>;
    };
    expect(later.keys.map((k) => k.kid)).toEqual([newKid]);
  });

  it('rotated by two processes at once leave one key in charge, the newest', async () => {
    const a = await site('samtidig-nyckel');
    const b = await site('samtidig-nyckel', a.databaseUrl);
    // Both keys are made in the same millisecond (the clock stands still), the hardest case.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const [first, second] = await Promise.all([a.ctx.keys.rotate(), b.ctx.keys.rotate()]);
    vi.useRealTimers();
    const rows = await a.ctx.db
      .selectFrom('signing_keys')
      .selectAll()
      .orderBy('created_date', 'desc')
      .orderBy('kid', 'desc')
      .execute();
    const current = rows.filter((r) => !r.retired_date);
    expect(current).toHaveLength(1);
    expect([first, second]).toContain(current[0]!.kid);
    expect(current[0]!.kid).toBe(rows[0]!.kid);
  });

  it('rotate on their own when older than SIGNING_KEY_MAX_AGE_DAYS', async () => {
    const server = await site('aldersnyckel');
    const kid = server.ctx.keys.current.signing.kid;
    vi.useFakeTimers({
      toFake: ['Date'],
      now: Date.now() + (server.ctx.config.signingKeyMaxAgeDays + 1) * 24 * 3600_000,
    });
    await runMaintenance(server.ctx);
    expect(server.ctx.keys.current.signing.kid).not.toBe(kid);
  });
});
