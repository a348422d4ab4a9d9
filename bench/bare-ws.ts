/**
 * The bare `ws` server the hub benchmarks compare against, as a child process: the hub's socket
 * options, the SignalR JSON handshake answered, and the connections tracked for a broadcast, and
 * nothing else. GET /memory answers its memory (as the hub's /metrics does: no forced GC, unless
 * `?gc` and the process runs with --expose-gc); POST /broadcast?n=N&round=R sends one hub-shaped
 * frame to the first N connections.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import type WebSocket from 'ws';
import { WebSocketServer } from 'ws';

const RS = '\x1e';

/** The frame the bare server broadcasts: an event as the hub sends it. */
const bareFrame = (round: number) =>
  JSON.stringify({
    type: 1,
    target: 'SendEvent',
    arguments: ['ContactChanged', { id: 1, name: 'Benchmark', round }, 'Contact:1'],
  }) + RS;

function serveBare() {
  const sockets = new Set<WebSocket>();
  const http = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/memory') {
      if (url.searchParams.has('gc')) global.gc?.();
      const m = process.memoryUsage();
      res.end(JSON.stringify({ rss: m.rss, heap: m.heapUsed, connections: sockets.size }));
      return;
    }
    const frame = Buffer.from(bareFrame(Number(url.searchParams.get('round'))));
    let n = Number(url.searchParams.get('n'));
    for (const ws of sockets) {
      if (n-- === 0) break;
      ws.send(frame, { binary: false });
    }
    res.end('{}');
  });
  const wss = new WebSocketServer({
    server: http,
    clientTracking: false,
    perMessageDeflate: false,
    maxPayload: 256 * 1024,
  });
  const handshakeOk = Buffer.from(`{}${RS}`);
  wss.on('connection', (ws) => {
    ws.once('message', () => {
      sockets.add(ws);
      ws.send(handshakeOk, { binary: false });
    });
    ws.on('close', () => sockets.delete(ws));
  });
  http.listen(0, '127.0.0.1', () => {
    const address = http.address();
    console.info(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 }));
  });
}

/** Starts the bare server in a child process; `nodeArgs` go to that node (--expose-gc, --inspect=...). */
export async function startBare(nodeArgs: string[] = []): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', fileURLToPath(import.meta.url), 'serve'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => resolve((JSON.parse(String(d)) as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`bare ws server exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === 'serve') serveBare();
