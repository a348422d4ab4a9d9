import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';
import { login, postWithKey } from '../../../harness/test-server.ts';
import { runServerProcess, type ServerRun } from '../../../harness/server-process.ts';
import { replyWithError } from '../../../server/error-reply.ts';
import { startPostgres, type PostgresProcess } from '../../../harness/postgres-process.ts';

/**
 * Fault: PostgreSQL restarts (stopped, down for a while, started again), as an upgrade or a failover
 * does. The server must answer what a client can act on while it is away (503 with Retry-After, from
 * the API and from /healthz), and serve again once it is back, with its pool's broken connections
 * replaced and a retried write written once.
 */

/** The errors node-postgres and PostgreSQL give while the database is away, as they arrive. */
const UNAVAILABLE: Array<[string, Error & { code?: string }]> = [
  [
    'refused (stopped)',
    Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
  ],
  [
    'ended by a shutdown (57P01)',
    Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
  ],
  [
    'refused while starting or stopping (57P03)',
    Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
  ],
  ['a connection lost (class 08)', Object.assign(new Error('connection failure'), { code: '08006' })],
  ['terminated under a statement', new Error('Connection terminated unexpectedly')],
  ['no connection in time', new Error('timeout exceeded when trying to connect')],
  [
    "SQLite's file held by another writer past busy_timeout",
    Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }),
  ],
];

describe('an error that says the database is away', () => {
  const app = Fastify();
  let fail: Error = new Error();
  app.setErrorHandler(replyWithError);
  app.get('/fail', async () => {
    throw fail;
  });
  afterAll(() => app.close());

  it.each(UNAVAILABLE)('%s: answers 503 with Retry-After and the usual error body', async (_, error) => {
    fail = error;
    const res = await app.inject({ method: 'GET', url: '/fail' });
    expect(res.statusCode).toBe(503);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.json()).toEqual({ error: 'unavailable', message: expect.any(String) });
  });

  it('an error of the statement itself stays a 500 (nothing to wait for)', async () => {
    fail = Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' });
    const res = await app.inject({ method: 'GET', url: '/fail' });
    expect(res.statusCode).toBe(500);
    expect(res.headers['retry-after']).toBeUndefined();
  });
});

// The restart itself needs PostgreSQL (npm run test:scale sets DATABASE_URL to it). It restarts a
// PostgreSQL of its own (harness/postgres-process.ts), never the machine's, which the
// suite's other files use at the same time.
if (process.env.DATABASE_URL?.startsWith('postgres')) {
  describe('PostgreSQL restarts under a real server process', () => {
    let postgres: PostgresProcess;
    let server: ServerRun;
    let token: string;

    beforeAll(async () => {
      postgres = await startPostgres();
      server = await runServerProcess({ DATABASE_URL: postgres.url });
      if (server.exitCode !== null) throw new Error(`server did not start: ${server.output()}`);
      token = (await login(server.url, 'demo', 'demo-losenord')).access_token;
    });
    afterAll(async () => {
      await server?.stop();
      await postgres?.destroy();
    });

    const postLog = (message: string, key: string) =>
      postWithKey(server.url, '/portal/createclientlogs', { token, key, body: { message } });
    const health = async () => (await fetch(`${server.url}/healthz`)).status;
    /** /healthz keeps its answer a second: it tells the change within that, so it is asked until then. */
    async function untilHealth(status: number): Promise<Response> {
      const deadline = Date.now() + 5000;
      for (;;) {
        const probe = await fetch(`${server.url}/healthz`);
        if (probe.status === status || Date.now() > deadline) return probe;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }

    async function rows(message: string): Promise<number> {
      const c = new pg.Client({ connectionString: postgres.url });
      await c.connect();
      try {
        const { rows: found } = await c.query('SELECT id FROM client_logs WHERE message = $1', [message]);
        return found.length;
      } finally {
        await c.end();
      }
    }

    it('answers 503 with Retry-After while it is down, and writes the retry once when it is back', async () => {
      expect((await postLog('before-the-restart', randomUUID())).status).toBe(201);
      expect(await health()).toBe(200);

      const key = randomUUID();
      try {
        await postgres.stop();

        const during = await postLog('during-the-restart', key);
        expect(during.status).toBe(503);
        expect(Number(during.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(await during.json()).toEqual({ error: 'unavailable', message: expect.any(String) });
        // /healthz asks the database itself.
        const probe = await untilHealth(503);
        expect(probe.status).toBe(503);
        expect(probe.headers.get('retry-after')).not.toBeNull();
      } finally {
        if (!postgres.running()) await postgres.start();
      }

      // Back: the pool opens new connections in place of those the shutdown ended.
      expect((await untilHealth(200)).status).toBe(200);
      // The outbox sends the same request again with the same key: written once, then replayed.
      expect((await postLog('during-the-restart', key)).status).toBe(201);
      const again = await postLog('during-the-restart', key);
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(await rows('during-the-restart')).toBe(1);
      expect(server.output()).toContain('database: a connection broke');
      expect(server.exitCode).toBeNull();
    });
  });
}
