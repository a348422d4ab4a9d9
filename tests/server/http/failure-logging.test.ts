import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { api, createTestDatabase, login } from '../../../harness/test-server.ts';
import { runServerProcess, type ServerRun } from '../../../harness/server-process.ts';

/**
 * A server started as `npm start` starts it (server/main.ts), without LOG_REQUESTS: a request that
 * fails (500) is logged all the same, with what failed and where and nothing of the request's token;
 * a request that succeeds is not logged at all.
 */
let server: ServerRun | undefined;
const databases: Array<{ drop(): Promise<void> }> = [];
afterEach(async () => {
  await server?.stop();
  server = undefined;
  await Promise.all(databases.splice(0).map((d) => d.drop()));
});

describe('a failed request', () => {
  it('is logged without LOG_REQUESTS, without its token', async () => {
    const database = await createTestDatabase('');
    databases.push(database);
    server = await runServerProcess({ DATABASE_URL: database.url, LOG_REQUESTS: undefined });
    const token = (await login(server.url, 'demo', 'demo-losenord')).access_token;
    const ok = await api(server.url, '/portal/api/notifications', { token });
    expect(ok.status).toBe(200);
    const before = server.output();
    expect(before).not.toMatch(/"msg":"(incoming request|request completed)"/);

    // A fault under the server: a table it reads is gone.
    const db = new SQLite(database.url);
    db.exec('DROP TABLE notifications');
    db.close();
    const failed = await api(server.url, '/portal/api/notifications', { token });
    expect(failed.status).toBe(500);
    await expect.poll(() => server!.output(), { timeout: 10_000 }).toMatch(/"msg":"request failed"/);
    const logged = server.output().slice(before.length);
    expect(logged).toContain('no such table: notifications');
    expect(logged).not.toContain(token);
  });
});
