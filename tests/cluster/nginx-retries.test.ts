import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freeClusterPort, nginxConfig } from '../../harness/cluster/cluster.ts';

/**
 * The retries `npm run cluster` gives nginx (scripts/cluster.ts on top of deploy/nginx.conf), against
 * two stand-in processes whose answers each test sets: what a client gets when every process answers
 * 503 (PostgreSQL away), and which requests nginx sends to the other process when one dies after it
 * received them.
 */
const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p)) ?? 'nginx';

type Behaviour = 'ok' | 'unavailable' | 'die';
interface StandIn {
  behaviour: Behaviour;
  /** Requests it received: method, URL and Idempotency-Key. */
  seen: string[];
  server: http.Server;
}

let port: number;
let prefix: string;
let nginx: ChildProcess;
const standIns: StandIn[] = [];

function standIn(listenOn: number): Promise<StandIn> {
  const s: StandIn = { behaviour: 'ok', seen: [], server: http.createServer() };
  s.server.on('request', (req, res) => {
    req.resume();
    req.on('end', () => {
      s.seen.push(`${req.method} ${req.url} ${req.headers['idempotency-key'] ?? '-'}`);
      if (s.behaviour === 'die') return req.socket.destroy();
      if (s.behaviour === 'unavailable') {
        res.writeHead(503, { 'Retry-After': '2', 'Content-Type': 'application/json' });
        return res.end('{"error":"unavailable","message":"x"}');
      }
      res.writeHead(201, { 'Content-Type': 'application/json' });
      res.end(`{"from":${standIns.indexOf(s)}}`);
    });
  });
  return new Promise((resolve) => s.server.listen(listenOn, '127.0.0.1', () => resolve(s)));
}

beforeAll(async () => {
  port = await freeClusterPort(2);
  for (const i of [0, 1]) standIns.push(await standIn(port + 1 + i));
  prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-nginx-test-'));
  fs.chmodSync(prefix, 0o755);
  for (const dir of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) {
    fs.mkdirSync(path.join(prefix, dir), { mode: 0o777 });
    fs.chmodSync(path.join(prefix, dir), 0o777);
  }
  const nodes = [0, 1].map((i) => ({ id: `n${i + 1}`, port: port + 1 + i }));
  fs.writeFileSync(path.join(prefix, 'nginx.conf'), nginxConfig(prefix, port, nodes));
  nginx = spawn(NGINX, ['-p', prefix, '-c', path.join(prefix, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: 'ignore',
  });
  const deadline = Date.now() + 10_000;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) break;
    if (Date.now() > deadline) throw new Error('nginx did not open its port');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
});
afterAll(async () => {
  if (nginx && nginx.exitCode === null) {
    const done = new Promise((resolve) => nginx.once('exit', resolve));
    nginx.kill('SIGQUIT');
    await done;
  }
  await Promise.all(standIns.map((s) => new Promise((resolve) => s.server.close(resolve))));
  if (prefix) fs.rmSync(prefix, { recursive: true, force: true });
});

const as = (...behaviours: Behaviour[]) => {
  behaviours.forEach((b, i) => {
    standIns[i]!.behaviour = b;
    standIns[i]!.seen = [];
  });
};
const post = (url: string, key?: string) =>
  fetch(`http://127.0.0.1:${port}${url}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(key ? { 'Idempotency-Key': key } : {}) },
    body: '{"content":"hej"}',
  });

describe('nginx in front of the processes (npm run cluster)', () => {
  // First, while nginx has marked no process failed yet.
  it('sends a POST with an Idempotency-Key to the other process when one dies after receiving it', async () => {
    as('die', 'ok');
    for (let i = 0; i < 4; i++) {
      const res = await post(`/portal/api/messages?a=%2Fb&i=${i}`, `retry-${i}-abcdefgh`);
      expect(res.status).toBe(201);
      expect(await res.json()).toEqual({ from: 1 });
    }
    // A request the first process received (and died with) reached the second one, key, URL and all.
    const keyOf = (r: string) => r.split(' ')[2];
    const died = standIns[0]!.seen.map(keyOf);
    expect(died.length).toBeGreaterThan(0);
    expect(standIns[1]!.seen.map(keyOf)).toEqual(expect.arrayContaining(died));
    expect(standIns[1]!.seen).toContain(`POST /portal/api/messages?a=%2Fb&i=0 retry-0-abcdefgh`);
  });

  it('does not send a POST without a key again once a process received it: the client decides', async () => {
    as('die', 'die');
    const res = await post('/connect/token');
    expect(res.status).toBe(502);
    await res.arrayBuffer();
    const received = standIns.flatMap((s) => s.seen).filter((r) => r.startsWith('POST /connect/token'));
    expect(received).toHaveLength(1);
  });

  it('answers the processes’ 503 with Retry-After when every one of them answers 503, never its own 502', async () => {
    as('unavailable', 'unavailable');
    // Enough requests to have both processes marked failed (max_fails=1) over and over.
    for (let i = 0; i < 6; i++) {
      for (const res of [
        await fetch(`http://127.0.0.1:${port}/portal/api/x?i=${i}`),
        await post(`/portal/api/messages?i=${i}`, `key-${i}-abcdefgh`),
        await post(`/connect/token?i=${i}`),
      ]) {
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('2');
        expect(await res.json()).toEqual({ error: 'unavailable', message: 'x' });
      }
    }
    // The POST without a key reached a process once each time, never twice.
    const tokenPosts = standIns.flatMap((s) => s.seen).filter((r) => r.startsWith('POST /connect/token'));
    expect(tokenPosts).toHaveLength(6);
  });

  it('tries a GET on the other process when one answers 503', async () => {
    // Whether or not nginx still holds both failed from the test before, the GET ends on the one that serves.
    as('unavailable', 'ok');
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`http://127.0.0.1:${port}/portal/api/y?i=${i}`);
      expect(res.status).toBe(201);
      expect(await res.json()).toEqual({ from: 1 });
    }
  });
});
