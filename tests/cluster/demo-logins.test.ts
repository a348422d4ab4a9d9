import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clusterOptionsOf,
  freeClusterPort,
  startCluster,
  type Cluster,
} from '../../harness/cluster/cluster.ts';
import { createTestDatabase, LOCAL_POSTGRES_URL, tokenRequest } from '../../harness/test-server.ts';
import { DEMO_LOGINS, hasDemoLogins } from '../../server/db/seed.ts';
import { openDatabase } from '../../server/db/database.ts';

/**
 * Attack: `npm run cluster` seeded the demo logins (`kurator / kurator-losenord`, who reads every
 * queued child; `admin`) unless NODE_ENV=production, and served them through its nginx to
 * whoever reached the site. A cluster is a deployment: started as `npm run cluster` starts it,
 * with no DEMO_SEED in its environment, no process has a demo login, through nginx or asked
 * directly. (The chaos run and the other cluster tests ask for the demo by name.)
 */
let cluster: Cluster;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
const output: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase(LOCAL_POSTGRES_URL);
  for (let attempt = 0; ; attempt++) {
    try {
      // `npm run cluster`'s own options, from an environment without DEMO_SEED; the client aside.
      const options = clusterOptionsOf({
        CLUSTER_PROCESSES: '1',
        PORT: String(await freeClusterPort(1)),
        DATABASE_URL: database.url,
        REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
      });
      cluster = await startCluster({
        ...options,
        clientDir: '/nonexistent-client',
        log: (line) => output.push(line),
      });
      break;
    } catch (error) {
      if (attempt >= 3 || !String(error).includes('is taken')) throw error;
    }
  }
}, 60_000);
afterAll(async () => {
  await cluster?.stop();
  await database?.drop();
}, 60_000);

const staffLogin = (url: string, login: { username: string; password: string }) =>
  tokenRequest(url, { grant_type: 'password', client_id: 'portal-staff', ...login });

describe('npm run cluster without DEMO_SEED', () => {
  it('has no demo staff login, through nginx or at a process', async () => {
    expect(output.join('\n')).toContain('Demo data: off');
    for (const url of [cluster.url, cluster.nodes[0]!.url]) {
      for (const login of [DEMO_LOGINS.counsellor, DEMO_LOGINS.groupLeader, DEMO_LOGINS.admin]) {
        const answer = await staffLogin(url, login);
        expect({ url, user: login.username, refused: answer.status >= 400 }).toEqual({
          url,
          user: login.username,
          refused: true,
        });
        expect(answer.body.access_token).toBeUndefined();
      }
    }
    // Not merely refused: the site's database holds none of them.
    const open = openDatabase(database.url);
    try {
      expect(await hasDemoLogins(open.db)).toBe(false);
    } finally {
      await open.close();
    }
    const child = await tokenRequest(cluster.url, {
      grant_type: 'password',
      client_id: 'portal-web',
      ...DEMO_LOGINS.child,
    });
    expect(child.body.access_token).toBeUndefined();
  });

  it('is asked for the demo only by DEMO_SEED=1 itself', () => {
    const env = { DATABASE_URL: database.url };
    expect(clusterOptionsOf(env).demoSeed).toBe(false);
    expect(clusterOptionsOf({ ...env, DEMO_SEED: 'yes' }).demoSeed).toBe(false);
    expect(clusterOptionsOf({ ...env, DEMO_SEED: '1' }).demoSeed).toBe(true);
  });
});
