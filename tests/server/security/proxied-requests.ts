import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../../harness/server-process.ts';

/**
 * Requests as proxies send them, for the demo-login tests: a token request written by hand (any
 * HTTP version, any Host header), and Debian's nginx with nothing but a bare `proxy_pass` in front
 * of a server, as someone puts it in front of `npm start`.
 */

/** A password grant written on a socket of its own, exactly as given: its status and JSON body. */
export function rawTokenRequest(
  url: string,
  form: Record<string, string>,
  options: { httpVersion?: '1.0' | '1.1'; host?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const target = new URL(url);
  const body = new URLSearchParams(form).toString();
  const headers = {
    Host: options.host ?? target.host,
    'Content-Type': 'application/x-www-form-urlencoded',
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
    ...options.headers,
  };
  const request =
    `POST /connect/token HTTP/${options.httpVersion ?? '1.1'}\r\n` +
    Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('') +
    `\r\n${body}`;
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(target.port), target.hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('error', reject);
    socket.once('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', rest = ''] = text.split('\r\n\r\n', 2);
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1]);
      try {
        resolve({ status, body: JSON.parse(rest) as Record<string, unknown> });
      } catch {
        reject(new Error(`not a JSON answer: ${text}`));
      }
    });
    socket.write(request);
  });
}

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p)) ?? 'nginx';

/**
 * nginx at its own port with `location / { proxy_pass <upstream>; }` and nothing else: it adds no
 * header (no X-Forwarded-For, no Via), sets Host to the upstream's own, and speaks HTTP/1.0 to it.
 */
export async function bareNginx(upstream: string): Promise<{ url: string; stop(): Promise<void> }> {
  if (spawnSync(NGINX, ['-v']).error) throw new Error('nginx is not installed: apt-get install nginx');
  const port = await freePort();
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'bare-nginx-'));
  // Started as root, nginx's workers run as nobody: they must reach their temp folders.
  fs.chmodSync(prefix, 0o755);
  for (const dir of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) {
    fs.mkdirSync(path.join(prefix, dir));
    fs.chmodSync(path.join(prefix, dir), 0o777);
  }
  const conf = path.join(prefix, 'nginx.conf');
  fs.writeFileSync(
    conf,
    `worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${prefix}/client_body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  server {
    listen 127.0.0.1:${port};
    location / { proxy_pass ${upstream}; }
  }
}
`,
  );
  const nginx = spawn(NGINX, ['-p', prefix, '-c', conf, '-g', 'daemon off;'], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => nginx.once('exit', () => resolve()));
  await untilOpen(port, exited);
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      nginx.kill('SIGQUIT');
      await exited;
      fs.rmSync(prefix, { recursive: true, force: true });
    },
  };
}

/** Waits for the port to take connections, or fails when nginx exits first. */
async function untilOpen(port: number, exited: Promise<void>): Promise<void> {
  let gone = false;
  void exited.then(() => (gone = true));
  for (;;) {
    if (gone) throw new Error(`nginx exited before it listened on ${port}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
