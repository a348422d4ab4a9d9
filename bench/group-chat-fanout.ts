/**
 * Group chat fan-out (npm run bench:group): a real group-support server process, BENCH_SUBSCRIBERS
 * (default 200) raw WebSocket hub clients of the demo participants subscribed to one meeting's group
 * chat, and a group leader posting BENCH_ROUNDS (default 30) messages through the staff API. Reports
 * p50/p99 from sending the message to each subscriber's receipt of ConversationMessageCreated.
 */
import WebSocket from 'ws';
import { api, login } from '../harness/test-server.ts';
import { latencySummary, printReport, runBench, startBenchServer } from './support.ts';

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const RS = '\x1e';

function connect(url: string, token: string, entityKey: string, onEvent: () => void): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(
      `${url.replace('http', 'ws')}/hubs/portalaccountevents?access_token=${encodeURIComponent(token)}`,
    );
    let state: 'handshake' | 'subscribing' | 'ready' = 'handshake';
    ws.on('open', () => ws.send(`{"protocol":"json","version":1}${RS}`));
    ws.on('message', (raw) => {
      for (const frame of raw.toString().split(RS).filter(Boolean)) {
        const msg = JSON.parse(frame) as {
          type?: number;
          target?: string;
          arguments?: unknown[];
          error?: string;
        };
        if (state === 'handshake') {
          state = 'subscribing';
          ws.send(
            JSON.stringify({
              type: 1,
              invocationId: '1',
              target: 'SubscribeToEntity',
              arguments: [entityKey],
            }) + RS,
          );
        } else if (state === 'subscribing' && msg.type === 3) {
          if (msg.error) return reject(new Error(msg.error));
          state = 'ready';
          resolve(ws);
        } else if (msg.type === 1 && msg.arguments?.[0] === 'ConversationMessageCreated') {
          onEvent();
        }
      }
    });
    ws.on('error', reject);
  });
}

async function main() {
  const server = await startBenchServer({
    APP_VARIANT: 'gruppstod',
  });
  try {
    const leader = (await login(server.url, 'gruppledare', 'gruppledare-losenord', 'portal-staff'))
      .access_token;
    const tokens = await Promise.all(
      ['DEMOKOD-0001', 'DEMOKOD-0002', 'DEMOKOD-0003'].map(
        async (c) => (await login(server.url, c)).access_token,
      ),
    );
    const meetings = (await api(server.url, '/portal/staff/meetings', { token: leader })).body as {
      value: Array<{ id: number; state: string }>;
    };
    const meeting = meetings.value.find((m) => m.state === 'InProgress')!;
    const started = await api(server.url, `/portal/staff/meetings/${meeting.id}/start`, {
      token: leader,
      body: {},
    });
    const conversationId = (started.body as { conversation: { id: number } }).conversation.id;

    let t0 = 0;
    let pending = 0;
    let roundDone: () => void = () => undefined;
    const latencies: number[] = [];
    const onEvent = () => {
      latencies.push(performance.now() - t0);
      if (--pending === 0) roundDone();
    };
    const sockets = await Promise.all(
      Array.from({ length: SUBSCRIBERS }, (_, i) =>
        connect(server.url, tokens[i % tokens.length]!, `Conversation:${conversationId}`, onEvent),
      ),
    );
    for (let round = 0; round < ROUNDS; round++) {
      pending = SUBSCRIBERS;
      const done = new Promise<void>((resolve) => (roundDone = resolve));
      t0 = performance.now();
      const res = await api(server.url, `/portal/staff/meetings/${meeting.id}/messages`, {
        token: leader,
        body: { content: `Meddelande ${round}` },
      });
      if (res.status !== 201) throw new Error(`post failed: ${res.status}`);
      await done;
    }
    printReport({ subscribers: SUBSCRIBERS, rounds: ROUNDS, ...latencySummary(latencies, 1) });
    for (const ws of sockets) ws.terminate();
  } finally {
    await server.stop();
  }
}

runBench(main);
