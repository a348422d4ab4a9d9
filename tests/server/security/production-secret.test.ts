import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, MIN_SIGNING_KEY_SECRET_LENGTH } from '../../../server/config.ts';
import { createTestDatabase } from '../../../harness/test-server.ts';
import { runServerProcess } from '../../../harness/server-process.ts';

/**
 * Attack: a copy of the database (a backup, a stolen disk). Without SIGNING_KEY_SECRET the keys that
 * sign every login lie in it in the clear, and whoever holds the copy can sign a token for any
 * account, staff included. A production server does not start that way.
 */
const databases: Array<Awaited<ReturnType<typeof createTestDatabase>>> = [];
afterEach(async () => {
  await Promise.all(databases.splice(0).map((d) => d.drop()));
});

describe('a production server without SIGNING_KEY_SECRET', () => {
  it('is refused by the configuration, as is a short secret; development may go without', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SIGNING_KEY_SECRET must be set/);
    const short = 'x'.repeat(MIN_SIGNING_KEY_SECRET_LENGTH - 1);
    expect(() => loadConfig({ NODE_ENV: 'production', SIGNING_KEY_SECRET: short })).toThrow(
      /SIGNING_KEY_SECRET/,
    );
    const secret = 'x'.repeat(MIN_SIGNING_KEY_SECRET_LENGTH);
    expect(loadConfig({ NODE_ENV: 'production', SIGNING_KEY_SECRET: secret }).signingKeySecret).toBe(secret);
    expect(loadConfig({}).signingKeySecret).toBeUndefined();
  });

  it('does not start, and says why', async () => {
    const database = await createTestDatabase();
    databases.push(database);
    const server = await runServerProcess({
      DATABASE_URL: database.url,
      NODE_ENV: 'production',
      SIGNING_KEY_SECRET: undefined,
    });
    try {
      expect(server.exitCode).not.toBeNull();
      expect(server.exitCode).not.toBe(0);
      expect(server.output()).toContain('SIGNING_KEY_SECRET must be set');
    } finally {
      await server.stop();
    }
  });
});
