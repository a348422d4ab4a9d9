// nginx in front of the cluster's processes: its config from deploy/nginx.conf, its process.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exited } from './server-processes.ts';
import { untilOpen } from './ports.ts';
import type { Upstream } from './types.ts';

const root = path.resolve(import.meta.dirname, '../..');
const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p)) ?? 'nginx';

export interface Nginx {
  /** nginx re-reads its config and replaces its workers, as a deploy does (SIGHUP). */
  reload(): Promise<void>;
  /** Stops nginx gracefully and removes its folder. */
  stop(): Promise<void>;
}

/** Fails at once, with the fix, on a machine without nginx. */
export function assertNginxInstalled(): void {
  if (spawnSync(NGINX, ['-v']).error) {
    throw new Error('nginx is not installed: apt-get install nginx (Debian), then run this again.');
  }
}

/** deploy/nginx.conf with its {{...}} parts filled in for these processes. */
export function nginxConfig(
  prefix: string,
  port: number,
  nodes: Upstream[],
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

/** A folder of its own for nginx's config and temp files, reachable by its workers. */
function nginxPrefix(): string {
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-nginx-'));
  // nginx's workers run as nobody when it is started as root: they must reach their temp folders.
  fs.chmodSync(prefix, 0o755);
  for (const dir of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) {
    fs.mkdirSync(path.join(prefix, dir), { mode: 0o777 });
    fs.chmodSync(path.join(prefix, dir), 0o777);
  }
  return prefix;
}

/** Starts nginx on `port` in front of `nodes`, and resolves once it accepts connections. */
export async function startNginx(
  port: number,
  nodes: Upstream[],
  origin: 'site' | 'loopback' | undefined,
  log: (line: string) => void,
): Promise<Nginx> {
  const prefix = nginxPrefix();
  const confPath = path.join(prefix, 'nginx.conf');
  fs.writeFileSync(confPath, nginxConfig(prefix, port, nodes, origin));
  const test = spawnSync(NGINX, ['-t', '-q', '-p', prefix, '-c', confPath], { encoding: 'utf8' });
  if (test.status !== 0) throw new Error(`nginx refused its config:\n${test.stderr}`);
  const nginx = spawn(NGINX, ['-p', prefix, '-c', confPath, '-g', 'daemon off;'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  nginx.stderr?.on('data', (d: Buffer) => log(`[nginx] ${d.toString().trim()}`));
  try {
    await untilOpen(port, 'nginx');
  } catch (error) {
    nginx.kill('SIGKILL');
    throw error;
  }
  return {
    async reload() {
      const reloaded = spawnSync(NGINX, ['-p', prefix, '-c', confPath, '-s', 'reload'], { encoding: 'utf8' });
      if (reloaded.status !== 0) throw new Error(`nginx reload failed: ${reloaded.stderr}`);
      await untilOpen(port, 'nginx after its reload');
    },
    async stop() {
      const done = exited(nginx);
      nginx.kill('SIGQUIT');
      await done;
      fs.rmSync(prefix, { recursive: true, force: true });
    },
  };
}
