import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createTestDatabase, LOCAL_POSTGRES_URL, login, postWithKey } from '../../../harness/test-server.ts';
import { runServerProcess, type ServerRun } from '../../../harness/server-process.ts';
import { readMetrics } from '../../../harness/metrics-text.ts';

/**
 * Fault: PostgreSQL cuts the server's connections (pg_terminate_backend, as a failover or a restart
 * does). Always on PostgreSQL, whatever DATABASE_URL the suite runs with, and in a real server
 * process: an unheard pool error ends the process, which an in-process server would hide.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let server: ServerRun;
let admin: pg.Client;
let token: string;
let databaseName: string;

beforeAll(async () => {
  database = await createTestDatabase(LOCAL_POSTGRES_URL);
  databaseName = new URL(database.url).pathname.slice(1);
  server = await runServerProcess({ DATABASE_URL: database.url });
  if (server.exitCode !== null) throw new Error(`server did not start: ${server.output()}`);
  admin = new pg.Client({ connectionString: LOCAL_POSTGRES_URL });
  await admin.connect();
  token = (await login(server.url, 'demo', 'demo-losenord')).access_token;
});
afterAll(async () => {
  await admin?.end();
  await server?.stop();
  await database?.drop();
});

const postLog = (message: string, key: string) =>
  postWithKey(server.url, '/portal/createclientlogs', { token, key, body: { message } });

/** Cuts every connection the server holds to its database; answers how many were cut. */
async function cutServerConnections(): Promise<number> {
  const { rows } = await admin.query<{ cut: boolean }>(
    'SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
    [databaseName],
  );
  return rows.filter((r) => r.cut).length;
}

async function rows(message: string): Promise<number> {
  const c = new pg.Client({ connectionString: database.url });
  await c.connect();
  try {
    const { rows: found } = await c.query('SELECT id FROM client_logs WHERE message = $1', [message]);
    return found.length;
  } finally {
    await c.end();
  }
}

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('PostgreSQL cuts the server’s connections', () => {
  it('while they are idle: the process lives on and the next write gets a new connection', async () => {
    expect((await postLog('before-the-cut', randomUUID())).status).toBe(201);
    expect(await cutServerConnections()).toBeGreaterThan(0);
    await until(() => server.output().includes('database: a connection broke'), 'the pool error');

    expect(server.exitCode).toBeNull();
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await postLog('after-the-cut', randomUUID())).status).toBe(201);
    expect(await rows('after-the-cut')).toBe(1);
    expect((await readMetrics(server.url)).get('db_errors_total{kind="connection"}')).toBeGreaterThanOrEqual(
      1,
    );
  });

  it('in the middle of a write: the write fails whole, and its retry with the same key writes it once', async () => {
    const key = randomUUID();
    // The write waits on a lock, so it is surely in flight when its connection is cut.
    const locker = new pg.Client({ connectionString: database.url });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE client_logs IN ACCESS EXCLUSIVE MODE');
    const lockerPid = (await locker.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const inFlight = postLog('cut-mid-write', key);
    await until(async () => {
      const { rows: waiting } = await admin.query(
        "SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock' AND pid <> $2",
        [databaseName, lockerPid],
      );
      return waiting.length > 0;
    }, 'the write to wait on the lock');
    await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid NOT IN (pg_backend_pid(), $2)',
      [databaseName, lockerPid],
    );
    const failed = await inFlight;
    await locker.query('ROLLBACK');
    await locker.end();

    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(await failed.json()).toEqual({ error: expect.any(String), message: expect.any(String) });
    expect(await rows('cut-mid-write')).toBe(0);
    // The outbox sends the same request again with the same key.
    let retry = await postLog('cut-mid-write', key);
    // A key still being released answers 429 with Retry-After, which the outbox honours.
    for (let i = 0; retry.status === 429 && i < 5; i++) {
      await new Promise((resolve) => setTimeout(resolve, Number(retry.headers.get('retry-after')) * 1000));
      retry = await postLog('cut-mid-write', key);
    }
    expect(retry.status).toBe(201);
    expect((await postLog('cut-mid-write', key)).headers.get('idempotent-replayed')).toBe('true');
    expect(await rows('cut-mid-write')).toBe(1);
    expect(server.exitCode).toBeNull();
  });
});
