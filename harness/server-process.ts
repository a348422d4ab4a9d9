import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** A real server process (`tsx server/main.ts`), as `npm start` runs it minus the client build. */
export interface ServerProcess {
  url: string;
  stop(): Promise<void>;
}

/**
 * A load bench measures fan-out and latency, not the per-account limits (those have their own
 * tests in tests/server/security): its one demo account may hold every connection and message.
 */
export const BENCH_LIMITS = { HUB_MAX_CONNECTIONS_PER_ACCOUNT: '100000', RATE_LIMIT_FACTOR: '1000' };

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** A server process as it ran: its exit code if it stopped before it was up, and what it printed. */
export interface ServerRun extends ServerProcess {
  exitCode: number | null;
  output(): string;
}

/**
 * Runs `tsx server/main.ts` until it says it is up or exits. `env` comes on top of this process's
 * own and the test defaults (loopback, demo data); a key set to `undefined` is left out entirely.
 */
export async function runServerProcess(env: Record<string, string | undefined>): Promise<ServerRun> {
  // A bench may name its own port (PORT); otherwise any free one.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const merged: Record<string, string | undefined> = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DEMO_SEED: '1',
    CLIENT_DIR: path.join(os.tmpdir(), 'no-client-in-server-tests'),
    ...env,
  };
  // SERVER_CPU_PROFILE=<folder>: a bench's server writes a V8 CPU profile there when it stops
  // (NODE_OPTIONS may not carry --cpu-prof).
  const profile = process.env.SERVER_CPU_PROFILE;
  const nodeArgs = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'server/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: Object.fromEntries(Object.entries(merged).filter(([, v]) => v !== undefined)),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const run: ServerRun = {
    url: `http://127.0.0.1:${port}`,
    exitCode: null,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        // Gone already: it exited, or a signal (a test's SIGKILL) ended it.
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGINT');
      }),
  };
  await new Promise<void>((resolve) => {
    const collect = (d: Buffer) => {
      output += d.toString();
      if (output.includes('Press Ctrl-C to stop.')) resolve();
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    child.once('exit', (code) => {
      run.exitCode = code;
      resolve();
    });
  });
  return run;
}

/** What a production server needs to start: its secret (one per test run, shared by its processes). */
export const PRODUCTION_ENV = {
  NODE_ENV: 'production',
  SIGNING_KEY_SECRET: randomBytes(32).toString('hex'),
} as const;

/** A server process that must come up; its failure to start fails the test with what it printed. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const run = await runServerProcess(env);
  if (run.exitCode !== null) throw new Error(`server exited with ${run.exitCode}: ${run.output()}`);
  return run;
}
