// A PostgreSQL of its own: a fresh cluster (initdb) in a temporary folder on a free port, which a
// test or `npm run chaos` may stop and start as a restart or a failover would, without touching the
// machine's PostgreSQL that other test files and runs share at the same time.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './server-process.ts';

export interface PostgresProcess {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication, loopback only). */
  url: string;
  port: number;
  running(): boolean;
  /** A fast shutdown, as a restart does: every session is ended (57P01), new ones are refused. */
  stop(): Promise<void>;
  /** Starts it again on the same port and folder; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops it (at once) and removes its folder. */
  destroy(): Promise<void>;
}

/** The newest installed PostgreSQL's programs (Debian: /usr/lib/postgresql/<major>/bin), or the PATH's. */
function binDir(): string {
  const base = '/usr/lib/postgresql';
  const majors = fs.existsSync(base)
    ? fs
        .readdirSync(base)
        .filter((v) => fs.existsSync(path.join(base, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  return majors.length > 0 ? path.join(base, majors[0]!, 'bin') : '';
}

/** PostgreSQL refuses to run as root: as root, its programs run as the `postgres` user. */
const asRoot = process.getuid?.() === 0;

function run(program: string, args: string[]): Promise<void> {
  const command = binDir() ? path.join(binDir(), program) : program;
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${program} ${args.join(' ')}: exit ${code}\n${output}`)),
    );
  });
}

export async function startPostgres(): Promise<PostgresProcess> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-postgres-'));
  if (asRoot) fs.chownSync(dir, Number(await idOf('postgres', '-u')), Number(await idOf('postgres', '-g')));
  const data = path.join(dir, 'data');
  const port = await freePort();
  await run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync']);
  // Loopback only, its socket in its own folder; no fsync: a test's data need not outlive a crash
  // of the machine, only a clean restart (which writes everything out).
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  let up = false;
  const postgres: PostgresProcess = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    running: () => up,
    async start() {
      await run('pg_ctl', [
        '-D',
        data,
        '-o',
        options,
        '-l',
        path.join(dir, 'log'),
        '-w',
        '-t',
        '30',
        'start',
      ]);
      up = true;
    },
    async stop() {
      up = false;
      await run('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop']);
    },
    async destroy() {
      up = false;
      await run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  await postgres.start();
  return postgres;
}

function idOf(user: string, flag: '-u' | '-g'): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('id', [flag, user], { stdio: ['ignore', 'pipe', 'ignore'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(output.trim()) : reject(new Error(`no user ${user}`)),
    );
  });
}
