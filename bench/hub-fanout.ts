/**
 * Hub benchmark (npm run bench): a real server process, raw WebSocket clients speaking the SignalR
 * JSON protocol.
 * 1. Idle capacity: opens BENCH_IDLE connections (default 10,000) and reports the server's memory per
 *    connection (resident and V8 heap, from /metrics).
 * 2. Fan-out: BENCH_SUBSCRIBERS of them (default 1,000) subscribe to one entity; a server-side change
 *    (a profile update over HTTP) is made BENCH_ROUNDS times (default 20); the time from sending the
 *    change to each client's receipt of its SendEvent gives p50 and p99.
 * Everything runs on loopback and stops by itself.
 */
import WebSocket from 'ws';
import { login, api } from '../tests/server/test-server.ts';
import { latencySummary, printReport, runBench, startBenchServer } from './support.ts';

const IDLE = Number(process.env.BENCH_IDLE ?? 10_000);
const SUBSCRIBERS = Math.min(IDLE, Number(process.env.BENCH_SUBSCRIBERS ?? 1_000));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const RS = '\x1e';

interface Client {
  ws: WebSocket;
  onEvent?: () => void;
}

async function metric(url: string, name: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const m = new RegExp(`^${name} (\\d+)`, 'm').exec(text);
  return Number(m?.[1] ?? NaN);
}

function openClient(url: string, token: string): Promise<Client> {
  return new Promise((resolve, reject) => {
    const wsUrl = `${url.replace('http', 'ws')}/hubs/portalaccountevents?access_token=${encodeURIComponent(token)}`;
    const ws = new WebSocket(wsUrl);
    const client: Client = { ws };
    let handshaken = false;
    ws.on('open', () => ws.send(`{"protocol":"json","version":1}${RS}`));
    ws.on('message', (raw) => {
      const text = raw.toString();
      if (!handshaken) {
        handshaken = true;
        resolve(client);
        return;
      }
      if (text.includes('"SendEvent"')) client.onEvent?.();
    });
    ws.on('error', reject);
  });
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

async function main() {
  const server = await startBenchServer({
    NODE_OPTIONS: '--expose-gc',
  });
  try {
    const { access_token } = await login(server.url, 'demo', 'demo-losenord');
    const detail = await api(server.url, '/portal/features/contacts/contactsapplicationfeature-id/detail', {
      token: access_token,
    });
    const contactId = (detail.body as { info: { contact: { id: number } } }).info.contact.id;

    const rssBefore = await metric(server.url, 'process_resident_memory_bytes');
    const heapBefore = await metric(server.url, 'nodejs_heap_used_bytes');
    const clients: Client[] = [];
    const started = performance.now();
    for (let i = 0; i < IDLE; i += 200) {
      const batch = Math.min(200, IDLE - i);
      clients.push(
        ...(await Promise.all(Array.from({ length: batch }, () => openClient(server.url, access_token)))),
      );
    }
    const openSeconds = (performance.now() - started) / 1000;
    const connections = await metric(server.url, 'hub_connections');
    const rssAfter = await metric(server.url, 'process_resident_memory_bytes');
    const heapAfter = await metric(server.url, 'nodejs_heap_used_bytes');

    const subscribers = clients.slice(0, SUBSCRIBERS);
    await Promise.all(
      subscribers.map((c, i) => invoke(c, i + 1, 'SubscribeToEntity', `Contact:${contactId}`)),
    );

    const latencies: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      let remaining = subscribers.length;
      let t0 = 0;
      const done = new Promise<void>((resolve) => {
        for (const c of subscribers) {
          c.onEvent = () => {
            c.onEvent = undefined;
            latencies.push(performance.now() - t0);
            if (--remaining === 0) resolve();
          };
        }
      });
      t0 = performance.now();
      const res = await api(server.url, '/portal/features/contacts/contactsapplicationfeature-id/update', {
        token: access_token,
        body: { name: 'Demo' },
      });
      if (res.status !== 200) throw new Error(`update failed: ${res.status}`);
      await done;
    }

    const report = {
      idleConnections: connections,
      secondsToOpen: Number(openSeconds.toFixed(1)),
      rssBytesPerConnection: Math.round((rssAfter - rssBefore) / IDLE),
      heapBytesPerConnection: Math.round((heapAfter - heapBefore) / IDLE),
      serverRssMiB: Math.round(rssAfter / 1024 / 1024),
      fanOut: { subscribers: SUBSCRIBERS, rounds: ROUNDS, ...latencySummary(latencies, 1) },
    };
    printReport(report);
    for (const c of clients) c.ws.terminate();
  } finally {
    await server.stop();
  }
}

runBench(main);
