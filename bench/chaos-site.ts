// The chaos run's site: a PostgreSQL and a Redis of its own, `npm run cluster`'s processes behind
// nginx on them, the next release a rolling upgrade rolls out, and the calls the run makes to it
// as staff and as a new child.
import { randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { freeClusterPort, startCluster, type Cluster } from '../harness/cluster/cluster.ts';
import { withProbeMigration } from '../harness/next-release.ts';
import { startPostgres, type PostgresProcess } from '../harness/postgres-process.ts';
import { startRedis, stopRedis } from '../harness/redis-process.ts';
import { freePort } from '../harness/server-process.ts';
import { login } from '../harness/test-server.ts';
import { buildClientIfStale } from '../scripts/client-build.ts';
import { prepareRelease, type Release } from '../scripts/release.ts';
import { CHILD_PASSWORD } from './chaos-client.ts';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const log = (line: string) => console.info(`${new Date().toISOString().slice(11, 23)} ${line}`);

/** What the staff writers were answered with: replays of a key, and each 5xx status before a retry. */
export const staffSeen = { replayed: 0, retried: new Map<number, number>() };

/** A staff call that is retried as the staff console's outbox would: same key, until it is answered. */
export async function staffCall(
  url: string,
  token: string,
  path: string,
  body?: unknown,
  key = randomUUID(),
): Promise<{ status: number; body: unknown; attempts: number }> {
  const deadline = Date.now() + 90_000;
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await fetch(`${url}/portal/staff${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          Authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json', 'Idempotency-Key': key }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
      const text = await res.text();
      if (res.headers.get('idempotent-replayed') === 'true') staffSeen.replayed++;
      const retry = res.status === 429 || res.status >= 500;
      if (res.status >= 500) staffSeen.retried.set(res.status, (staffSeen.retried.get(res.status) ?? 0) + 1);
      if (!retry || Date.now() > deadline) {
        return { status: res.status, body: text ? JSON.parse(text) : null, attempts: attempt };
      }
      const after = Number(res.headers.get('retry-after') ?? 0) * 1000;
      await sleep(Math.max(after, Math.min(2000, 100 * 2 ** attempt)));
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(Math.min(2000, 100 * 2 ** attempt));
    }
  }
}

export const staffLogin = async (url: string, username = 'kurator', password = 'kurator-losenord') =>
  (await login(url, username, password, 'portal-staff')).access_token;

/** A child account through the public registration, as the app's form makes it. */
export async function registerChild(site: string, name: string): Promise<void> {
  const registered = await fetch(`${site}/portal/api/accounts/registercontact`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-App-Variant': 'Barn' },
    body: JSON.stringify({ username: name, password: CHILD_PASSWORD, properties: { birthYear: '2011' } }),
  });
  if (registered.status !== 201) throw new Error(`registration of ${name}: ${registered.status}`);
}

export interface ChaosSite {
  cluster: Cluster;
  /** nginx: where every client reaches the site. */
  url: string;
  postgres: PostgresProcess;
  databaseName: string;
  databaseUrl: string;
  redisPort: number;
  /** The Redis running now (a restart replaces it). */
  redis: ChildProcess;
  /** What a 'rolling upgrade' rolls out: one migration more, and a client with a BUILD_ID of its own. */
  nextRelease: Release;
  /** A statement on the maintenance database, on a connection of its own (PostgreSQL restarts). */
  adminQuery(text: string, values?: unknown[]): Promise<pg.QueryResult>;
  /** /healthz of every running process, until each answers `status` or the deadline passes: the ones that did not. */
  untilHealth(status: number, timeoutMs: number): Promise<string[]>;
  /** Stops what started: the cluster, Redis, PostgreSQL (with its folder). */
  stop(): Promise<void>;
}

/** The cluster, up to four tries: a free run of ports may be taken between the check and the listen. */
async function startChaosCluster(
  processes: number,
  browsers: number,
  databaseUrl: string,
  redisPort: number,
): Promise<Cluster> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await startCluster({
        processes,
        port: await freeClusterPort(processes),
        databaseUrl,
        redisUrl: `redis://127.0.0.1:${redisPort}`,
        clientDir: browsers > 0 ? buildClientIfStale() : '/nonexistent-client',
        // One counsellor account and one address write what several would: limits times five.
        env: { RATE_LIMIT_FACTOR: '5' },
        // It drives the demo's counsellor, support group and participants.
        demoSeed: true,
        // Each browser child comes through a fault proxy of its own, at its own loopback origin.
        origin: 'loopback',
        log: (line) => {
          if (/warn|error|broke|lost|reconnected/i.test(line)) log(line);
        },
      });
    } catch (error) {
      if (attempt >= 3 || !String(error).includes('is taken')) throw error;
    }
  }
}

/**
 * PostgreSQL and Redis of the run's own (restarting them hits nothing else on the machine), the
 * cluster on them, and the next release. Whatever started is stopped again when a later part fails.
 */
export async function startChaosSite(options: {
  seed: number;
  processes: number;
  browsers: number;
}): Promise<ChaosSite> {
  const postgres = await startPostgres();
  const stops: Array<() => Promise<unknown>> = [() => postgres.destroy()];
  const unwind = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  };
  try {
    const server = postgres.url.replace(/\/postgres$/, '');
    const databaseName = `chaos_${options.seed}_${process.pid}`;
    const databaseUrl = `${server}/${databaseName}`;
    const redisPort = await freePort();
    const site = { redis: await startRedis(redisPort) };
    stops.push(() => stopRedis(site.redis));
    const cluster = await startChaosCluster(options.processes, options.browsers, databaseUrl, redisPort);
    stops.push(() => cluster.stop());
    log('preparing the next release (a client build)...');
    const nextRelease = withProbeMigration(
      await prepareRelease({
        client: options.browsers > 0 ? 'build' : null,
        previousClientDir: cluster.release().clientDir,
      }),
    );
    log(`next release ${nextRelease.id} ready`);
    log(
      `cluster up at ${cluster.url}; Redis on ${redisPort}; PostgreSQL on ${postgres.port}, database ${databaseName}`,
    );
    return Object.assign(site, {
      cluster,
      url: cluster.url,
      postgres,
      databaseName,
      databaseUrl,
      redisPort,
      nextRelease,
      async adminQuery(text: string, values: unknown[] = []) {
        const admin = new pg.Client({ connectionString: `${server}/postgres` });
        await admin.connect();
        try {
          return await admin.query(text, values);
        } finally {
          await admin.end();
        }
      },
      async untilHealth(status: number, timeoutMs: number) {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const answers = await Promise.all(
            cluster.nodes.map(async (n) => {
              if (!n.running()) return status;
              return fetch(`${n.url}/healthz`, { signal: AbortSignal.timeout(3000) })
                .then((r) => r.status)
                .catch(() => 0);
            }),
          );
          const wrong = answers
            .map((got, i) => [i, got] as const)
            .filter(([, got]) => got !== status)
            .map(([i, got]) => `n${i + 1} answered ${got}`);
          if (wrong.length === 0 || Date.now() > deadline) return wrong;
          await sleep(100);
        }
      },
      stop: unwind,
    });
  } catch (error) {
    await unwind();
    throw error;
  }
}
