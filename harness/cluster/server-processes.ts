// The cluster's server processes: one per node, started from the current release, each on its port.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { CHECKOUT, type Release } from '../../scripts/release.ts';
import type { ClusterOptions, Upstream } from './types.ts';

const root = path.resolve(import.meta.dirname, '../..');

/** Resolves when the child has exited (at once when it already has). */
export const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
  });

/** The environment of one node's process: the cluster's, the node's own, then `extra` on top. */
export function nodeEnvironment(
  options: ClusterOptions,
  node: Upstream,
  release: Release,
  extra: Record<string, string | undefined>,
): NodeJS.ProcessEnv {
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
    ...extra,
    // Whatever this process or `env` holds: only the option seeds the demo.
    DEMO_SEED: options.demoSeed ? '1' : '0',
  };
  return Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv;
}

/** The processes, by node index: which one runs, starting and stopping them, the release they start from. */
export class ServerProcesses {
  private readonly children: Array<ChildProcess | null>;
  /** The release a start uses from now on (the checkout, until an upgrade). */
  current: Release;

  constructor(
    private readonly options: ClusterOptions,
    readonly nodes: Upstream[],
  ) {
    this.children = nodes.map(() => null);
    this.current = { ...CHECKOUT, clientDir: options.clientDir };
  }

  pid(index: number): number | undefined {
    return this.children[index]?.pid;
  }

  running(index: number): boolean {
    return this.children[index] !== null;
  }

  /** Starts the node's process from the current release and resolves once it says it is up. */
  async start(index: number, extra: Record<string, string | undefined> = {}): Promise<void> {
    const node = this.nodes[index]!;
    const log = this.options.log ?? (() => undefined);
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: this.current.root,
      env: nodeEnvironment(this.options, node, this.current, extra),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.children[index] = child;
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
        if (this.children[index] === child) this.children[index] = null;
        reject(new Error(`${node.id} exited (${signal ?? code}) before it was up:\n${output}`));
      });
    });
    up.catch(() => undefined);
    await up;
  }

  /** Every process: the first alone, as it applies the migrations (and the demo data) the rest find done. */
  async startAll(): Promise<void> {
    try {
      await this.start(0);
      await Promise.all(this.nodes.slice(1).map((_, i) => this.start(i + 1)));
    } catch (error) {
      this.killAll();
      throw error;
    }
  }

  /** Signals a process and waits for it to exit (SIGKILL: nothing drained; SIGTERM: drained). */
  async kill(index: number, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.children[index];
    if (!child) return;
    const done = exited(child);
    child.kill(signal);
    await done;
    this.children[index] = null;
  }

  /** Kills every process at once, waiting for none: a start that failed half way. */
  killAll(): void {
    for (const child of this.children) child?.kill('SIGKILL');
  }

  untilExit(index: number): Promise<NodeJS.Signals | number | null> {
    const child = this.children[index];
    if (!child) return Promise.resolve(null);
    return exited(child).then(() => child.signalCode ?? child.exitCode);
  }

  /** Drains every process (SIGTERM) and waits for all of them. */
  async stopAll(): Promise<void> {
    await Promise.all(
      this.children.map(async (child) => {
        if (!child) return;
        const done = exited(child);
        child.kill('SIGTERM');
        await done;
      }),
    );
  }
}
