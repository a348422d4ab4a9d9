/**
 * Hub benchmark (npm run bench), side by side with a bare `ws` server (the hub-scale targets). Two
 * processes: the real server, and a bare `ws` server with the hub's socket options that answers the
 * handshake and broadcasts on request. Raw WebSocket clients speak the SignalR JSON protocol to both
 * and send a ping every 10 s, as the official client does (the hub drops a client silent for 30 s).
 * 1. Idle capacity: opens BENCH_IDLE connections (default 10,000) to each and reports each server's
 *    memory per connection (resident, and V8 heap as each process reports it, without a forced GC).
 *    BENCH_IDLE=20000 is the capacity run: the open-files limit of this process (and so of both
 *    servers it starts) is raised first where the OS allows, by running itself again under
 *    `ulimit -n`; all but the fan-out's clients are held by child processes, each with its own limit.
 *    One server process needs a descriptor per connection plus its own few, so a hard limit of N
 *    open files allows a little under N connections.
 * 2. Fan-out: with every idle connection still open, BENCH_SUBSCRIBERS of each (default 1,000)
 *    receive an event BENCH_ROUNDS times (default 200, after a warm-up round each that is not
 *    counted), hub and bare rounds taking turns: for the hub a server-side change (a profile update
 *    over HTTP) to an entity they subscribed to, for the bare server an HTTP request that broadcasts
 *    a hub-shaped frame to them. The time from sending the request to each client's receipt gives p50
 *    and p99, and the ratio of the two p99s.
 * BENCH_TOKENS=each gives every hub connection an access token of its own (a chain of refreshes of
 * one login, as many devices and renewals of one account would hold), rather than one token for all:
 * what the hub keeps per token then counts once per connection, as it does on a real site.
 * BENCH_NEGOTIATE=1 makes every hub client negotiate first, as the official client does by default
 * (a POST to /negotiate, then the upgrade with its connection token); otherwise they skip it.
 * Everything runs on loopback and stops by itself.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import WebSocket, { WebSocketServer } from 'ws';
import { freePort } from '../harness/server-process.ts';
import { login, api, refreshRequest } from '../harness/test-server.ts';
import { latencySummary, printReport, runBench, startBenchServer } from './support.ts';

const IDLE = Number(process.env.BENCH_IDLE ?? 10_000);
const TOKEN_EACH = process.env.BENCH_TOKENS === 'each';
const NEGOTIATE = process.env.BENCH_NEGOTIATE === '1';
const SUBSCRIBERS = Math.min(IDLE, Number(process.env.BENCH_SUBSCRIBERS ?? 1_000));
/**
 * 200 rounds: a p99 over 50 (50,000 receipts) rests on the slowest half-round, one garbage collection
 * in the measuring process, and the same build's ratio went from 0.84 to 1.43 in 7 runs; over 200 it
 * went from 0.90 to 1.17 in 5.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const RS = '\x1e';
const HANDSHAKE = `{"protocol":"json","version":1}${RS}`;
const PING = `{"type":6}${RS}`;
const CLIENT_PING_MS = 10_000;
const PING_SLICES = 100;

/**
 * Pings every client once per CLIENT_PING_MS, a hundredth of them at a time: real clients' pings are
 * spread over the interval, not one burst of thousands.
 */
function startPinging(clients: Client[]): NodeJS.Timeout {
  let slice = 0;
  return setInterval(() => {
    for (let i = slice; i < clients.length; i += PING_SLICES) {
      const ws = clients[i]!.ws;
      if (ws.readyState === WebSocket.OPEN) ws.send(PING);
    }
    slice = (slice + 1) % PING_SLICES;
  }, CLIENT_PING_MS / PING_SLICES);
}
/** A server's sockets and some room (each server is its own process). */
const FDS_NEEDED = IDLE + 1024;
/** Connections from one source address to one server before the next 127.0.0.x (ephemeral ports). */
const PER_SOURCE_ADDRESS = 25_000;

// ---- the file-descriptor limit ------------------------------------------------------------------
/** The soft limit on open files of this process (Linux), or null where it cannot be read. */
function openFilesLimit(): number | null {
  try {
    const line = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return line ? (line[1] === 'unlimited' ? Infinity : Number(line[1])) : null;
  } catch {
    return null;
  }
}

/**
 * Node cannot raise its own limit, so the bench runs itself again under `ulimit -n` (raising the hard
 * limit too needs privilege; without it, the soft limit goes up to the hard one). The servers it
 * starts inherit the limit. Returns the exit code of that run, or null when this run goes on.
 */
function rerunWithMoreFileDescriptors(): number | null {
  const limit = openFilesLimit();
  if (limit === null || limit >= FDS_NEEDED || process.env.BENCH_FD_RAISED) return null;
  const result = spawnSync(
    'sh',
    [
      '-c',
      `ulimit -n ${FDS_NEEDED} 2>/dev/null || ulimit -n "$(ulimit -H -n)"; exec "$@"`,
      'sh',
      process.execPath,
      ...process.execArgv,
      ...process.argv.slice(1),
    ],
    { stdio: 'inherit', env: { ...process.env, BENCH_FD_RAISED: '1' } },
  );
  return result.status ?? 1;
}

// ---- the bare ws server (a child process) -------------------------------------------------------
/** The frame the bare server broadcasts: an event as the hub sends it. */
const bareFrame = (round: number) =>
  JSON.stringify({
    type: 1,
    target: 'SendEvent',
    arguments: ['ContactChanged', { id: 1, name: 'Demo', round }, 'Contact:1'],
  }) + RS;

/**
 * The hub's socket options, with the connections it must track for a broadcast. GET /memory answers
 * its memory (as /metrics does: no forced GC); POST /broadcast?n=N&round=R sends one frame to the
 * first N connections.
 */
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

async function startBare(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), 'serve-bare'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => resolve((JSON.parse(String(d)) as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`bare ws server exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

// ---- the clients --------------------------------------------------------------------------------
interface Client {
  ws: WebSocket;
  onEvent?: () => void;
}

async function metric(url: string, name: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const m = new RegExp(`^${name} (\\d+)`, 'm').exec(text);
  return Number(m?.[1] ?? NaN);
}

/** The hub URL with the connection token of a negotiate made with the URL's access token. */
async function negotiated(wsUrl: string): Promise<string> {
  const url = new URL(wsUrl);
  const token = url.searchParams.get('access_token');
  if (!token) return wsUrl;
  const res = await fetch(`${url.origin.replace('ws', 'http')}${url.pathname}/negotiate?negotiateVersion=1`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
  });
  if (res.status !== 200) throw new Error(`negotiate answered ${res.status}`);
  url.searchParams.set('id', ((await res.json()) as { connectionToken: string }).connectionToken);
  return url.toString();
}

/** A client that has shaken hands; `i` spreads them over source addresses past PER_SOURCE_ADDRESS. */
async function openClient(target: string, i: number): Promise<Client> {
  const wsUrl = NEGOTIATE ? await negotiated(target) : target;
  return new Promise((resolve, reject) => {
    const n = Math.floor(i / PER_SOURCE_ADDRESS);
    const ws = new WebSocket(wsUrl, n === 0 ? {} : { localAddress: `127.0.0.${1 + n}` });
    const client: Client = { ws };
    let handshaken = false;
    ws.on('open', () => ws.send(HANDSHAKE));
    ws.on('message', (raw) => {
      if (!handshaken) {
        handshaken = true;
        resolve(client);
        return;
      }
      if (raw.toString().includes('"SendEvent"')) client.onEvent?.();
    });
    ws.on('error', reject);
  });
}

/**
 * Where the clients connect: one URL for all, or the hub's with the i-th access token of a file
 * (BENCH_TOKENS=each), so a holder process reads the same tokens as this one.
 */
interface Target {
  wsUrl: string;
  tokensFile?: string;
}

function urlsOf(target: Target): (i: number) => string {
  if (!target.tokensFile) return () => target.wsUrl;
  const tokens = JSON.parse(readFileSync(target.tokensFile, 'utf8')) as string[];
  return (i) => `${target.wsUrl}?access_token=${encodeURIComponent(tokens[i % tokens.length]!)}`;
}

async function openClients(target: Target, count: number, from = 0): Promise<Client[]> {
  const urlOf = urlsOf(target);
  const clients: Client[] = [];
  for (let i = from; i < from + count; i += 200) {
    const batch = Math.min(200, from + count - i);
    clients.push(
      ...(await Promise.all(Array.from({ length: batch }, (_, k) => openClient(urlOf(i + k), i + k)))),
    );
  }
  return clients;
}

/** `count` access tokens of the demo login, each from a refresh of the one before. */
async function tokenChain(url: string, count: number): Promise<string[]> {
  let tokens = await login(url, 'demo', 'demo-losenord');
  const all = [tokens.access_token];
  while (all.length < count) {
    const res = await refreshRequest(url, tokens.refresh_token);
    if (res.status !== 200) throw new Error(`refresh failed: ${res.status} ${JSON.stringify(res.body)}`);
    tokens = res.body as unknown as typeof tokens;
    all.push(tokens.access_token);
  }
  return all;
}

/** Idle clients held by child processes: each process has its own open-files limit. */
const HOLDER_CAPACITY = Math.max(1000, Math.min(25_000, (openFilesLimit() ?? 10_000) - 1024));

/** A child process that opens `count` idle clients (pinging as the others) and holds them until killed. */
function hold() {
  const [wsUrl, count, from, tokensFile] = [
    process.argv[3]!,
    Number(process.argv[4]),
    Number(process.argv[5]),
    process.argv[6],
  ];
  const clients: Client[] = [];
  startPinging(clients);
  openClients(tokensFile ? { wsUrl, tokensFile } : { wsUrl }, count, from).then(
    (opened) => {
      clients.push(...opened);
      process.send?.({ opened: opened.length });
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
  process.on('disconnect', () => process.exit(0));
}

/**
 * `keep` clients in this process (the ones that take part in the fan-out), the rest of `count` in
 * holder processes; resolves once all have shaken hands, with the kept ones and the seconds it took.
 */
async function openIdle(target: Target, count: number, keep: number, holders: ChildProcess[]) {
  const started = performance.now();
  const clients = await openClients(target, keep);
  for (let from = keep; from < count; from += HOLDER_CAPACITY) {
    const n = Math.min(count - from, HOLDER_CAPACITY);
    const child = spawn(
      process.execPath,
      [
        ...process.execArgv,
        fileURLToPath(import.meta.url),
        'hold',
        target.wsUrl,
        String(n),
        String(from),
        ...(target.tokensFile ? [target.tokensFile] : []),
      ],
      { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
    );
    holders.push(child);
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('exit', (code) => reject(new Error(`client holder exited with ${code}`)));
    });
  }
  return { clients, seconds: Number(((performance.now() - started) / 1000).toFixed(1)) };
}

function invoke(client: Client, id: number, method: string, arg: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onMessage = (raw: WebSocket.RawData) => {
      for (const frame of raw.toString().split(RS)) {
        if (!frame) continue;
        const msg = JSON.parse(frame) as { type: number; invocationId?: string; error?: string };
        if (msg.type === 3 && msg.invocationId === String(id)) {
          client.ws.off('message', onMessage);
          if (msg.error) reject(new Error(msg.error));
          else resolve();
        }
      }
    };
    client.ws.on('message', onMessage);
    client.ws.send(
      JSON.stringify({ type: 1, invocationId: String(id), target: method, arguments: [arg] }) + RS,
    );
  });
}

/** One round: `trigger` sends the request; resolves with each subscriber's latency from that moment. */
async function round(subscribers: Client[], trigger: () => Promise<void>): Promise<number[]> {
  const latencies: number[] = [];
  let t0 = 0;
  const done = new Promise<void>((resolve) => {
    let remaining = subscribers.length;
    for (const c of subscribers) {
      c.onEvent = () => {
        c.onEvent = undefined;
        latencies.push(performance.now() - t0);
        if (--remaining === 0) resolve();
      };
    }
  });
  t0 = performance.now();
  await trigger();
  await done;
  return latencies;
}

const perConnection = (after: number, before: number) => Math.round((after - before) / IDLE);

/**
 * A full garbage collection in the server, through its inspector (the server has no such route), so
 * the settled figures count what connections hold rather than the garbage of opening them.
 */
async function collectGarbage(inspectorPort: number): Promise<void> {
  const [target] = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json()) as Array<{
    webSocketDebuggerUrl: string;
  }>;
  const session = new WebSocket(target!.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => session.once('open', resolve).once('error', reject));
  await new Promise<void>((resolve) => {
    session.on('message', (raw) => {
      if ((JSON.parse(String(raw)) as { id?: number }).id === 1) resolve();
    });
    session.send(JSON.stringify({ id: 1, method: 'HeapProfiler.collectGarbage' }));
  });
  session.close();
}

async function main() {
  const bare = await startBare();
  const inspectorPort = await freePort();
  const server = await startBenchServer({ NODE_OPTIONS: `--inspect=127.0.0.1:${inspectorPort}` });
  const all: Client[] = [];
  const holders: ChildProcess[] = [];
  const tokensDir = mkdtempSync(join(tmpdir(), 'hub-bench-'));
  const tokensFile = join(tokensDir, 'tokens.json');
  // As the official client: a ping every 10 s keeps the hub's 30 s client timeout from dropping anyone.
  const pinger = startPinging(all);
  try {
    // Bare ws first: its idle memory, with nothing else on the machine from this bench yet.
    const bareMemory = async (gc = false) =>
      (await (await fetch(`${bare.url}/memory${gc ? '?gc' : ''}`)).json()) as {
        rss: number;
        heap: number;
        connections: number;
      };
    const bareBefore = await bareMemory();
    const bareBeforeGc = await bareMemory(true);
    const bareOpen = await openIdle({ wsUrl: bare.url.replace('http', 'ws') }, IDLE, SUBSCRIBERS, holders);
    all.push(...bareOpen.clients);
    const bareAfter = await bareMemory();
    const bareAfterGc = await bareMemory(true);

    const { access_token } = await login(server.url, 'demo', 'demo-losenord');
    const detail = await api(server.url, '/portal/features/contacts/contactsapplicationfeature-id/detail', {
      token: access_token,
    });
    const contactId = (detail.body as { info: { contact: { id: number } } }).info.contact.id;
    const rssBefore = await metric(server.url, 'process_resident_memory_bytes');
    const heapBefore = await metric(server.url, 'nodejs_heap_size_used_bytes');
    await collectGarbage(inspectorPort);
    let rssBeforeGc = await metric(server.url, 'process_resident_memory_bytes');
    let heapBeforeGc = await metric(server.url, 'nodejs_heap_size_used_bytes');
    const hubBase = `${server.url.replace('http', 'ws')}/hubs/portalaccountevents`;
    let hubTarget: Target = { wsUrl: `${hubBase}?access_token=${encodeURIComponent(access_token)}` };
    if (TOKEN_EACH) {
      writeFileSync(tokensFile, JSON.stringify(await tokenChain(server.url, IDLE)));
      hubTarget = { wsUrl: hubBase, tokensFile };
      // The chain's own garbage (its requests, the tokens it read) is not the connections'.
      await collectGarbage(inspectorPort);
      heapBeforeGc = await metric(server.url, 'nodejs_heap_size_used_bytes');
      rssBeforeGc = await metric(server.url, 'process_resident_memory_bytes');
    }
    const hubOpen = await openIdle(hubTarget, IDLE, SUBSCRIBERS, holders);
    all.push(...hubOpen.clients);
    const connections = await metric(server.url, 'hub_connections');
    const rssAfter = await metric(server.url, 'process_resident_memory_bytes');
    const heapAfter = await metric(server.url, 'nodejs_heap_size_used_bytes');
    await collectGarbage(inspectorPort);
    const rssAfterGc = await metric(server.url, 'process_resident_memory_bytes');
    const heapAfterGc = await metric(server.url, 'nodejs_heap_size_used_bytes');

    const hubSubscribers = hubOpen.clients.slice(0, SUBSCRIBERS);
    await Promise.all(
      hubSubscribers.map((c, i) => invoke(c, i + 1, 'SubscribeToEntity', `Contact:${contactId}`)),
    );
    const bareSubscribers = bareOpen.clients.slice(0, SUBSCRIBERS);

    // Turn about, so both see the same machine (other work on it, GC, the clients' pings).
    const hubLatencies: number[] = [];
    const bareLatencies: number[] = [];
    const hubRound = () =>
      round(hubSubscribers, async () => {
        const res = await api(server.url, '/portal/features/contacts/contactsapplicationfeature-id/update', {
          token: access_token,
          body: { name: 'Solen' },
        });
        if (res.status !== 200) throw new Error(`update failed: ${res.status} ${JSON.stringify(res.body)}`);
      });
    const bareRound = (r: number) =>
      round(bareSubscribers, async () => {
        const res = await fetch(`${bare.url}/broadcast?n=${SUBSCRIBERS}&round=${r}`, { method: 'POST' });
        if (res.status !== 200) throw new Error(`broadcast failed: ${res.status}`);
        await res.arrayBuffer();
      });
    // A round of each first, not counted: the first event through each server runs its code cold
    // (the hub's first update prepares its statements; V8 has not compiled the paths yet). Counted,
    // that one round alone set the p99 of 20 (hub 80 ms against a usual 20-30 ms).
    await hubRound();
    await bareRound(-1);
    for (let r = 0; r < ROUNDS; r++) {
      hubLatencies.push(...(await hubRound()));
      bareLatencies.push(...(await bareRound(r)));
    }
    const hubFanOut = latencySummary(hubLatencies, 1);
    const bareFanOut = latencySummary(bareLatencies, 1);

    printReport({
      idleConnections: IDLE,
      tokens: TOKEN_EACH ? 'one per connection' : 'one for all',
      negotiate: NEGOTIATE,
      openFilesLimit: openFilesLimit(),
      hub: {
        connections,
        connectionsAtEnd: await metric(server.url, 'hub_connections'),
        secondsToOpen: hubOpen.seconds,
        rssBytesPerConnection: perConnection(rssAfter, rssBefore),
        heapBytesPerConnection: perConnection(heapAfter, heapBefore),
        afterFullGc: {
          rssBytesPerConnection: perConnection(rssAfterGc, rssBeforeGc),
          heapBytesPerConnection: perConnection(heapAfterGc, heapBeforeGc),
        },
        serverRssMiB: Math.round(rssAfter / 1024 / 1024),
        fanOut: { subscribers: SUBSCRIBERS, rounds: ROUNDS, ...hubFanOut },
      },
      bareWs: {
        connections: bareAfter.connections,
        connectionsAtEnd: (await bareMemory()).connections,
        secondsToOpen: bareOpen.seconds,
        rssBytesPerConnection: perConnection(bareAfter.rss, bareBefore.rss),
        heapBytesPerConnection: perConnection(bareAfter.heap, bareBefore.heap),
        afterFullGc: {
          rssBytesPerConnection: perConnection(bareAfterGc.rss, bareBeforeGc.rss),
          heapBytesPerConnection: perConnection(bareAfterGc.heap, bareBeforeGc.heap),
        },
        serverRssMiB: Math.round(bareAfter.rss / 1024 / 1024),
        fanOut: { subscribers: SUBSCRIBERS, rounds: ROUNDS, ...bareFanOut },
      },
      p99RatioHubToBare: Number((hubFanOut.p99ms / bareFanOut.p99ms).toFixed(2)),
      rssRatioHubToBare: Number(
        (perConnection(rssAfter, rssBefore) / perConnection(bareAfter.rss, bareBefore.rss)).toFixed(2),
      ),
    });
  } finally {
    clearInterval(pinger);
    for (const c of all) c.ws.terminate();
    for (const h of holders) h.kill();
    rmSync(tokensDir, { recursive: true, force: true });
    bare.child.kill();
    await server.stop();
  }
}

if (process.argv[2] === 'serve-bare') {
  serveBare();
} else if (process.argv[2] === 'hold') {
  hold();
} else {
  const status = rerunWithMoreFileDescriptors();
  if (status === null) runBench(main);
  else process.exitCode = status;
}
