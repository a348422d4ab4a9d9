import { afterAll, describe, expect, it } from 'vitest';
import {
  api,
  createTestDatabase,
  login,
  startTestServer,
  tokenRequest,
} from '../../../harness/test-server.ts';

const databases: Array<Awaited<ReturnType<typeof createTestDatabase>>> = [];
afterAll(async () => {
  await Promise.all(databases.map((d) => d.drop()));
});

describe('signing keys', () => {
  it('survive a restart: tokens issued before it still work after it', async () => {
    const database = await createTestDatabase();
    databases.push(database);
    const first = await startTestServer({ databaseUrl: database.url });
    const tokens = await login(first.url, 'demo', 'demo-losenord');
    await first.dispose();

    const second = await startTestServer({ databaseUrl: database.url });
    try {
      expect((await api(second.url, '/portal/accounts', { token: tokens.access_token })).status).toBe(200);
      const refreshed = await tokenRequest(second.url, {
        grant_type: 'refresh_token',
        client_id: 'portal-web',
        refresh_token: tokens.refresh_token,
      });
      expect(refreshed.status).toBe(200);
    } finally {
      await second.dispose();
    }
  });

  it('are not shared between two sites: a token of another database is refused', async () => {
    const a = await startTestServer();
    const b = await startTestServer();
    try {
      const tokens = await login(a.url, 'demo', 'demo-losenord');
      expect((await api(b.url, '/portal/accounts', { token: tokens.access_token })).status).toBe(401);
    } finally {
      await Promise.all([a.dispose(), b.dispose()]);
    }
  });
});
