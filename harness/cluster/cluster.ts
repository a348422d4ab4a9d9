// Several server processes on PostgreSQL and Redis behind nginx (deploy/nginx.conf), the way a site
// runs more than one process: `npm run cluster` (harness/cluster/main.ts), the cluster's tests,
// `npm run chaos` and the load benches. The parts: the ports (ports.ts), the database
// (database.ts), the processes (server-processes.ts) and nginx (nginx.ts).
import type { Release } from '../../scripts/release.ts';
import { CLUSTER_DATABASE_URL, ensureDatabase } from './database.ts';
import { assertNginxInstalled, startNginx, type Nginx } from './nginx.ts';
import { canListen } from './ports.ts';
import { ServerProcesses } from './server-processes.ts';
import type { Cluster, ClusterNode, ClusterOptions, Upstream } from './types.ts';

export type { Cluster, ClusterNode, ClusterOptions } from './types.ts';
export { freeClusterPort } from './ports.ts';
export { nginxConfig } from './nginx.ts';

/** n1, n2, ...: each on the port after the one before, nginx's first. */
function upstreamsOf(options: ClusterOptions): Upstream[] {
  return Array.from({ length: options.processes }, (_, i) => ({
    id: `n${i + 1}`,
    port: options.port + 1 + i,
  }));
}

/** Fails before anything starts when a port the cluster needs is taken. */
async function assertPortsFree(options: ClusterOptions, nodes: Upstream[]): Promise<void> {
  for (const port of [options.port, ...nodes.map((n) => n.port)]) {
    if (!(await canListen(port))) throw new Error(`port ${port} is taken (PORT=${options.port})`);
  }
}

/**
 * A rolling upgrade: each process drained and started again on `release` before the next goes. A
 * process the new release cannot start goes on with the previous one, and so do those not yet
 * replaced (those already replaced keep the new one until the next upgrade).
 */
async function rollingUpgrade(
  processes: ServerProcesses,
  nodes: ClusterNode[],
  release: Release,
  replaced?: (node: ClusterNode) => void | Promise<void>,
): Promise<void> {
  const previous = processes.current;
  // From now on every start is of the new release, a restart after a fault included.
  processes.current = release;
  for (const [index, node] of nodes.entries()) {
    await processes.kill(index, 'SIGTERM');
    try {
      await processes.start(index);
    } catch (error) {
      processes.current = previous;
      await processes.start(index);
      throw new Error(`${node.id} did not start on release ${release.id}; it runs ${previous.id} again`, {
        cause: error,
      });
    }
    await replaced?.(node);
  }
}

/** The processes (the first applying the migrations), then nginx in front of them. */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  assertNginxInstalled();
  if (options.databaseUrl.startsWith('postgres')) await ensureDatabase(options.databaseUrl);
  const upstreams = upstreamsOf(options);
  await assertPortsFree(options, upstreams);

  const processes = new ServerProcesses(options, upstreams);
  await processes.startAll();
  let nginx: Nginx;
  try {
    nginx = await startNginx(options.port, upstreams, options.origin, options.log ?? (() => undefined));
  } catch (error) {
    processes.killAll();
    throw error;
  }

  const nodes: ClusterNode[] = upstreams.map((node, i) => ({
    ...node,
    url: `http://127.0.0.1:${node.port}`,
    pid: () => processes.pid(i),
    running: () => processes.running(i),
  }));
  return {
    url: `http://127.0.0.1:${options.port}`,
    nodes,
    kill: (index, signal) => processes.kill(index, signal),
    async start(index, env) {
      if (processes.running(index)) return;
      await processes.start(index, env);
    },
    release: () => processes.current,
    upgrade: (release, replaced) => rollingUpgrade(processes, nodes, release, replaced),
    untilExit: (index) => processes.untilExit(index),
    reloadNginx: () => nginx.reload(),
    async stop() {
      await processes.stopAll();
      await nginx.stop();
    },
  };
}

/**
 * What `npm run cluster` starts, from its environment: CLUSTER_PROCESSES, PORT, DATABASE_URL,
 * REDIS_URL, and the demo only with DEMO_SEED=1 (a cluster is a deployment). All but the client.
 */
export function clusterOptionsOf(env: NodeJS.ProcessEnv): Omit<ClusterOptions, 'clientDir'> {
  const processes = Number(env.CLUSTER_PROCESSES ?? 2);
  if (!Number.isInteger(processes) || processes < 1 || processes > 64) {
    throw new Error('CLUSTER_PROCESSES must be a whole number from 1 to 64');
  }
  const databaseUrl = env.DATABASE_URL ?? CLUSTER_DATABASE_URL;
  if (!databaseUrl.startsWith('postgres')) {
    throw new Error('A cluster shares one PostgreSQL database: DATABASE_URL must be postgres://...');
  }
  return {
    processes,
    port: Number(env.PORT ?? 8080),
    databaseUrl,
    redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    // No demo logins unless asked for by name: behind nginx they would answer whoever reaches it.
    demoSeed: env.DEMO_SEED === '1',
  };
}
