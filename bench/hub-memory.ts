/**
 * Hub memory per idle connection against a bare `ws` server (npm run bench:hub-memory): V8 heap in
 * use after a full GC, read in each server's own process. Both servers run with --expose-gc and an
 * inspector on loopback, and both are measured the same way: through the inspector, `gc()` and then
 * `process.memoryUsage().heapUsed` (the real server gets no route for it). Raw WebSocket clients
 * shake hands with the SignalR JSON protocol (as bench/hub-fanout.ts's) and ping every 10 s, and stay
 * idle. Each server first gets BENCH_WARMUP connections (default 100) that stay open throughout,
 * so that what any first connection costs once (code compiled, the hub's first token verification
 * and its database statements) is in the baseline; then it is measured (the baseline) and again with
 * each count of BENCH_COUNTS (default 1000,5000) more open. It prints (heap - baseline) / N for both
 * servers and their ratio, hub/bare, at each N; BENCH_WARMUP=0 counts the one-off costs in.
 * BENCH_REPEATS (default 1) runs the whole comparison again.
 */
import type { ChildProcess } from 'node:child_process';
import WebSocket from 'ws';
import { freePort } from '../tests/server/server-process.ts';
import { login } from '../tests/server/test-server.ts';
import { startBare } from './bare-ws.ts';
import { printReport, runBench, startBenchServer } from './support.ts';

const COUNTS = (process.env.BENCH_COUNTS ?? '1000,5000').split(',').map(Number);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 1);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 100);
const RS = '\x1e';
const HANDSHAKE = `{"protocol":"json","version":1}${RS}`;
const PING = `{"type":6}${RS}`;
/** As the official client: the hub drops a client silent for 30 s. */
const CLIENT_PING_MS = 10_000;

/** Evaluates `expression` in the process behind the inspector on `port`; answers its JSON value. */
async function evaluate(port: number, expression: string): Promise<unknown> {
  const [target] = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{
    webSocketDebuggerUrl: string;
  }>;
  const session = new WebSocket(target!.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => session.once('open', resolve).once('error', reject));
  try {
    return await new Promise((resolve, reject) => {
      session.on('message', (raw) => {
        const msg = JSON.parse(String(raw)) as {
          id?: number;
          result?: { result: { value: string }; exceptionDetails?: unknown };
        };
        if (msg.id !== 1) return;
        if (msg.result?.exceptionDetails) reject(new Error(JSON.stringify(msg.result.exceptionDetails)));
        else resolve(JSON.parse(msg.result!.result.value));
      });
      session.send(
        JSON.stringify({ id: 1, method: 'Runtime.evaluate', params: { expression, returnByValue: true } }),
      );
    });
  } finally {
    session.close();
  }
}

/** V8 heap in use after full collections (twice: the first may leave what finalizers free). */
const heapAfterGc = async (inspectorPort: number) =>
  (await evaluate(
    inspectorPort,
    'globalThis.gc(); globalThis.gc(); JSON.stringify(process.memoryUsage().heapUsed)',
  )) as number;

function openClient(wsUrl: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl);
    ws.on('open', () => ws.send(HANDSHAKE));
    ws.once('message', () => resolve(ws));
    ws.on('error', reject);
  });
}

async function openClients(wsUrl: string, count: number, into: WebSocket[]): Promise<void> {
  for (let i = 0; i < count; i += 200) {
    const batch = Math.min(200, count - i);
    into.push(...(await Promise.all(Array.from({ length: batch }, () => openClient(wsUrl)))));
  }
}

/** Per-connection heap of one server at each of COUNTS, clients opened on top of the ones before. */
async function measure(wsUrl: string, inspectorPort: number): Promise<number[]> {
  const clients: WebSocket[] = [];
  const pinger = setInterval(() => {
    for (const ws of clients) if (ws.readyState === WebSocket.OPEN) ws.send(PING);
  }, CLIENT_PING_MS);
  try {
    await openClients(wsUrl, WARMUP, clients);
    const baseline = await heapAfterGc(inspectorPort);
    const perConnection: number[] = [];
    for (const n of COUNTS) {
      await openClients(wsUrl, WARMUP + n - clients.length, clients);
      perConnection.push(Math.round(((await heapAfterGc(inspectorPort)) - baseline) / n));
    }
    return perConnection;
  } finally {
    clearInterval(pinger);
    await Promise.all(clients.map((ws) => new Promise((resolve) => ws.once('close', resolve).terminate())));
  }
}

async function compare() {
  const bareInspector = await freePort();
  const bare: { url: string; child: ChildProcess } = await startBare([
    '--expose-gc',
    `--inspect=127.0.0.1:${bareInspector}`,
  ]);
  const hubInspector = await freePort();
  const server = await startBenchServer({
    NODE_OPTIONS: `--expose-gc --inspect=127.0.0.1:${hubInspector}`,
  });
  try {
    const bareBytes = await measure(bare.url.replace('http', 'ws'), bareInspector);
    const { access_token } = await login(server.url, 'demo', 'demo-losenord');
    const hubUrl = `${server.url.replace('http', 'ws')}/hubs/portalaccountevents?access_token=${encodeURIComponent(access_token)}`;
    const hubBytes = await measure(hubUrl, hubInspector);
    return COUNTS.map((n, i) => ({
      connections: n,
      hubHeapBytesPerConnection: hubBytes[i]!,
      bareWsHeapBytesPerConnection: bareBytes[i]!,
      ratioHubToBare: Number((hubBytes[i]! / bareBytes[i]!).toFixed(2)),
    }));
  } finally {
    bare.child.kill();
    await server.stop();
  }
}

async function main() {
  const runs = [];
  for (let r = 0; r < REPEATS; r++) runs.push(await compare());
  printReport({ warmUpConnections: WARMUP, heapAfterFullGc: runs.length === 1 ? runs[0] : runs });
}

runBench(main);
