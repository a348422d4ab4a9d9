// `npm run cluster`: several server processes on PostgreSQL and Redis behind nginx (deploy/nginx.conf),
// the way a site runs more than one process. Also used by the tests, `npm run chaos` and `npm run bench:load`.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { CHECKOUT, type Release } from './release.ts';

const root = path.resolve(import.meta.dirname, '..');
const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p)) ?? 'nginx';

export interface ClusterOptions {
  /** Server processes behind nginx (CLUSTER_PROCESSES, 2). */
  processes: number;
  /** nginx's port, the site's address (PORT, 8080); the processes take the ports after it. */
  port: number;
  databaseUrl: string;
  redisUrl: string;
  /** The built client; none served when it does not exist (the tests and benches need no pages). */
  clientDir: string;
  /** More environment for every process (APP_VARIANT, limits for a bench, ...); never DEMO_SEED. */
  env?: Record<string, string | undefined>;
  /**
   * The demo logins and data (DEMO_SEED=1), off unless asked for: a cluster is a deployment, and
   * behind its nginx (TRUST_PROXY) they answer whoever reaches the site. The chaos run and the
   * cluster's tests ask for them.
   */
  demoSeed?: boolean;
  /** Where the processes' output goes, line by line with their node id in front; dropped by default. */
  log?: (line: string) => void;
  /**
   * 'site' (the default): nginx sets X-Forwarded-Host to the site's host and the processes run with
   * PUBLIC_ORIGIN, so no header a client sends names the site. 'loopback': the processes take the
   * host nginx was asked for and believe only a loopback one; for the chaos run, whose browsers
   * reach the cluster through fault proxies at origins of their own.
   */
  origin?: 'site' | 'loopback';
}

export interface ClusterNode {
  /** NODE_ID, which starts its hub connection tokens: n1, n2, ... */
  id: string;
  port: number;
  /** The process itself, for its /metrics (never served through nginx). */
  url: string;
  pid(): number | undefined;
  running(): boolean;
}

export interface Cluster {
  /** The site's address: nginx. */
  url: string;
  nodes: ClusterNode[];
  /** Signals a process and waits for it to exit (SIGKILL: nothing drained; SIGTERM: drained). */
  kill(index: number, signal?: NodeJS.Signals): Promise<void>;
  /**
   * Starts a stopped process again on its port and waits until it is up; `env` comes on top of the
   * cluster's for this start only (a fault point such as FAULT_KILL_AFTER_CREATE).
   */
  start(index: number, env?: Record<string, string | undefined>): Promise<void>;
  /** The release the processes start from now (the checkout, until an upgrade). */
  release(): Release;
  /**
   * A rolling upgrade: replaces the processes one at a time with `release`, each drained (SIGTERM)
   * and started again before the next goes, so the site always has a process up and the old and the
   * new release serve side by side meanwhile. `replaced` hears of each process as it comes up, and
   * the next waits for it.
   */
  upgrade(release: Release, replaced?: (node: ClusterNode) => void | Promise<void>): Promise<void>;
  /** Resolves when the process running now exits (at once when none runs), with its signal or code. */
  untilExit(index: number): Promise<NodeJS.Signals | number | null>;
  /** nginx re-reads its config and replaces its workers, as a deploy does (SIGHUP). */
  reloadNginx(): Promise<void>;
  /** Drains every process (SIGTERM), then stops nginx. */
  stop(): Promise<void>;
}

/** PostgreSQL's URL with another database name. */
const withDatabase = (url: string, name: string) => url.replace(/\/[^/]*$/, `/${name}`);

/** Creates the database of a postgres:// URL when it does not exist yet. */
export async function ensureDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`cannot create a database named ${name}`);
  const admin = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await admin.connect();
  try {
    const { rows } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rows.length === 0) await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
}

async function portIsOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Whether this machine lets us listen on the port (nothing listens there, no socket holds it). */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A free run of ports for nginx and its processes, below Linux's ephemeral range (32768 and up),
 * where outgoing connections would otherwise take them between our check and the listen.
 */
export async function freeClusterPort(processes: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 12_000);
    const ports = Array.from({ length: processes + 1 }, (_, i) => base + i);
    if ((await Promise.all(ports.map(canListen))).every(Boolean)) return base;
  }
  throw new Error('no free run of ports between 20000 and 32000');
}

async function untilOpen(port: number, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await portIsOpen(port))) {
    if (Date.now() > deadline) throw new Error(`${what} did not open port ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** deploy/nginx.conf with its {{...}} parts filled in for these processes. */
export function nginxConfig(
  prefix: string,
  port: number,
  nodes: Array<{ id: string; port: number }>,
  origin: 'site' | 'loopback' = 'site',
): string {
  const template = fs.readFileSync(path.join(root, 'deploy', 'nginx.conf'), 'utf8');
  const fill: Record<string, string> = {
    PREFIX: prefix,
    LISTEN: `127.0.0.1:${port}`,
    PUBLIC_HOST: origin === 'site' ? `127.0.0.1:${port}` : '$http_host',
    // A process that refused a connection (or answered 502/503) is left alone for 2 s before it is
    // tried again.
    APP_SERVERS: nodes.map((n) => `    server 127.0.0.1:${n.port} max_fails=1 fail_timeout=2s;`).join('\n'),
    APP_ANY_SERVERS: nodes.map((n) => `    server 127.0.0.1:${n.port} max_fails=0;`).join('\n'),
    NODE_UPSTREAMS: nodes
      .map((n) => `  upstream node_${n.id} {\n    server 127.0.0.1:${n.port};\n    keepalive 16;\n  }`)
      .join('\n'),
    NODE_MAP: nodes.map((n) => `    "~^${n.id}\\." node_${n.id};`).join('\n'),
  };
  return template.replace(/\{\{([A-Z_]+)\}\}/g, (_, key: string) => {
    const value = fill[key];
    if (value === undefined) throw new Error(`deploy/nginx.conf: nothing to fill {{${key}}} with`);
    return value;
  });
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  if (spawnSync(NGINX, ['-v']).error) {
    throw new Error('nginx is not installed: apt-get install nginx (Debian), then run this again.');
  }
  if (options.databaseUrl.startsWith('postgres')) await ensureDatabase(options.databaseUrl);
  const log = options.log ?? (() => undefined);
  const nodes = Array.from({ length: options.processes }, (_, i) => ({
    id: `n${i + 1}`,
    port: options.port + 1 + i,
  }));
  for (const port of [options.port, ...nodes.map((n) => n.port)]) {
    if (!(await canListen(port))) throw new Error(`port ${port} is taken (PORT=${options.port})`);
  }

  const children: Array<ChildProcess | null> = nodes.map(() => null);
  let current: Release = { ...CHECKOUT, clientDir: options.clientDir };
  const startNode = async (
    index: number,
    extraEnv: Record<string, string | undefined> = {},
  ): Promise<void> => {
    const node = nodes[index]!;
    const release = current;
    const env: Record<string, string | undefined> = {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(node.port),
      NODE_ID: node.id,
      // nginx on this machine is the proxy; its X-Forwarded-For is the client's address.
      TRUST_PROXY: '127.0.0.1',
      // The site's own origin, so that no header a client sends through nginx names it.
      PUBLIC_ORIGIN: options.origin === 'loopback' ? undefined : `http://127.0.0.1:${options.port}`,
      DATABASE_URL: options.databaseUrl,
      REDIS_URL: options.redisUrl,
      CLIENT_DIR: release.clientDir,
      // One erasure log for the site, whichever release's folder a process runs from (a relative
      // default would follow the folder, and a restore would miss the erasures logged elsewhere).
      ERASURE_LOG_FILE: process.env.ERASURE_LOG_FILE ?? path.join(root, 'data', 'erasure-log.jsonl'),
      ...options.env,
      ...extraEnv,
      // Whatever this process or `env` holds: only the option seeds the demo.
      DEMO_SEED: options.demoSeed ? '1' : '0',
    };
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: release.root,
      env: Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children[index] = child;
    let output = '';
    const up = new Promise<void>((resolve, reject) => {
      const onData = (data: Buffer) => {
        const text = data.toString();
        output += text;
        for (const line of text.split('\n')) if (line.trim()) log(`[${node.id}] ${line}`);
        if (output.includes('Press Ctrl-C to stop.')) resolve();
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('exit', (code, signal) => {
        if (children[index] === child) children[index] = null;
        reject(new Error(`${node.id} exited (${signal ?? code}) before it was up:\n${output}`));
      });
    });
    up.catch(() => undefined);
    await up;
  };

  const started: number[] = [];
  const cleanup = () => {
    for (const child of children) child?.kill('SIGKILL');
  };
  try {
    // The first alone: it applies the migrations (and the demo data); the rest find them done.
    await startNode(0);
    started.push(0);
    await Promise.all(nodes.slice(1).map((_, i) => startNode(i + 1)));
  } catch (error) {
    cleanup();
    throw error;
  }

  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-nginx-'));
  // nginx's workers run as nobody when it is started as root: they must reach their temp folders.
  fs.chmodSync(prefix, 0o755);
  for (const dir of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) {
    fs.mkdirSync(path.join(prefix, dir), { mode: 0o777 });
    fs.chmodSync(path.join(prefix, dir), 0o777);
  }
  const confPath = path.join(prefix, 'nginx.conf');
  fs.writeFileSync(confPath, nginxConfig(prefix, options.port, nodes, options.origin));
  const test = spawnSync(NGINX, ['-t', '-q', '-p', prefix, '-c', confPath], { encoding: 'utf8' });
  if (test.status !== 0) {
    cleanup();
    throw new Error(`nginx refused its config:\n${test.stderr}`);
  }
  const nginx = spawn(NGINX, ['-p', prefix, '-c', confPath, '-g', 'daemon off;'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  nginx.stderr?.on('data', (d: Buffer) => log(`[nginx] ${d.toString().trim()}`));
  try {
    await untilOpen(options.port, 'nginx');
  } catch (error) {
    cleanup();
    nginx.kill('SIGKILL');
    throw error;
  }

  const exited = (child: ChildProcess) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
    });

  const clusterNodes: ClusterNode[] = nodes.map((node, i) => ({
    ...node,
    url: `http://127.0.0.1:${node.port}`,
    pid: () => children[i]?.pid,
    running: () => children[i] !== null,
  }));
  const kill = async (index: number, signal: NodeJS.Signals = 'SIGKILL') => {
    const child = children[index];
    if (!child) return;
    const done = exited(child);
    child.kill(signal);
    await done;
    children[index] = null;
  };

  return {
    url: `http://127.0.0.1:${options.port}`,
    nodes: clusterNodes,
    kill,
    async start(index, env) {
      if (children[index]) return;
      await startNode(index, env);
    },
    release: () => current,
    async upgrade(release, replaced) {
      const previous = current;
      // From now on every start is of the new release, a restart after a fault included.
      current = release;
      for (const [index, node] of clusterNodes.entries()) {
        await kill(index, 'SIGTERM');
        try {
          await startNode(index);
        } catch (error) {
          // The new release does not start: this process and the ones not yet replaced go on with
          // the previous one (those already replaced keep the new one until the next upgrade).
          current = previous;
          await startNode(index);
          throw new Error(`${node.id} did not start on release ${release.id}; it runs ${previous.id} again`, {
            cause: error,
          });
        }
        await replaced?.(node);
      }
    },
    untilExit(index) {
      const child = children[index];
      if (!child) return Promise.resolve(null);
      return exited(child).then(() => child.signalCode ?? child.exitCode);
    },
    async reloadNginx() {
      const reloaded = spawnSync(NGINX, ['-p', prefix, '-c', confPath, '-s', 'reload'], { encoding: 'utf8' });
      if (reloaded.status !== 0) throw new Error(`nginx reload failed: ${reloaded.stderr}`);
      await untilOpen(options.port, 'nginx after its reload');
    },
    async stop() {
      await Promise.all(
        children.map(async (child) => {
          if (!child) return;
          const done = exited(child);
          child.kill('SIGTERM');
          await done;
        }),
      );
      const done = exited(nginx);
      nginx.kill('SIGQUIT');
      await done;
      fs.rmSync(prefix, { recursive: true, force: true });
    },
  };
}

/** The database `npm run cluster` uses unless DATABASE_URL names one: its own, on the machine's PostgreSQL. */
export const CLUSTER_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/portal_cluster';

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

async function main() {
  const { buildClientIfStale } = await import('./client-build.ts');
  const options: ClusterOptions = {
    ...clusterOptionsOf(process.env),
    clientDir: buildClientIfStale(),
    log: (line) => console.info(line),
  };
  const { processes, databaseUrl } = options;
  console.info(`Starting ${processes} server processes behind nginx...`);
  const cluster = await startCluster(options);
  console.info(
    `\nThe site runs at ${cluster.url} (nginx), database ${databaseUrl.replace(/\/\/[^@]*@/, '//')}`,
  );
  for (const node of cluster.nodes)
    console.info(`  ${node.id}: ${node.url} (its /metrics: ${node.url}/metrics)`);
  console.info(
    `\nA rolling upgrade to the checkout as it is now (docs/operations.md, "Rolling upgrade"): kill -HUP ${process.pid}`,
  );
  console.info('Press Ctrl-C to stop (each process drains its hub connections first).');
  let upgrading: Promise<void> | null = null;
  process.on('SIGHUP', () => {
    if (upgrading) return console.info('An upgrade is running already.');
    upgrading = rollingUpgrade(cluster)
      .catch((error: unknown) => {
        console.error('The upgrade stopped:', error instanceof Error ? error.message : error);
      })
      .finally(() => {
        upgrading = null;
      });
  });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.info('\nStopping...');
    await cluster.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

/**
 * SIGHUP: a release of the checkout as it is now (its server code and a client built with a new
 * BUILD_ID), rolled out one process at a time. The first new process applies the release's
 * migrations as it starts; the old ones run on (migrations only add).
 */
async function rollingUpgrade(cluster: Cluster) {
  const { prepareRelease } = await import('./release.ts');
  console.info('Upgrade: building the release...');
  const release = await prepareRelease({ client: 'build', previousClientDir: cluster.release().clientDir });
  console.info(`Upgrade: release ${release.id} in ${release.root}; replacing the processes one at a time`);
  await cluster.upgrade(release, (node) => console.info(`Upgrade: ${node.id} runs release ${release.id}`));
  console.info(`Upgrade: done; every process runs release ${release.id}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error('The cluster could not start:', error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
