/**
 * WebSocket permessage-deflate, measured (decide by memory per connection against bytes
 * saved). npm run bench:deflate. A bare `ws` server (the library the hub uses) in a child process, in
 * three settings: off (the hub's setting), on with context takeover (ws's default when enabled), and
 * on without context takeover. For each, BENCH_CONNECTIONS (default 2,000) idle clients that offer the
 * extension, then the server's memory per connection; then BENCH_EVENTS (default 500) hub events of
 * the real shape (a ConversationMessageCreated carrying its message, SignalR JSON framing) to 20 of
 * them, and the bytes on the wire per event.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import WebSocket, { WebSocketServer, type PerMessageDeflateOptions } from 'ws';
import { printReport, runBench } from './support.ts';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 2_000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 500);
const RECEIVERS = 20;
const RS = '\x1e';

type Setting = 'off' | 'context-takeover' | 'no-context-takeover';
const SETTINGS: Record<Setting, false | PerMessageDeflateOptions> = {
  off: false,
  'context-takeover': { threshold: 0 },
  'no-context-takeover': { threshold: 0, serverNoContextTakeover: true, clientNoContextTakeover: true },
};

const SENTENCES = [
  'Hej! Jag läste det du skrev om skolan, och det låter jobbigt.',
  'Berätta gärna mer om vad som hände idag.',
  'Det är modigt av dig att skriva hit.',
  'Hur känns det hemma just nu?',
  'Har du någon vuxen du litar på som du kan prata med?',
  'Jag förstår att du är ledsen, det är helt okej att känna så.',
  'Vad skulle du vilja ska hända nu?',
  'Du kan alltid skriva till oss igen, dygnet runt.',
];

/** A different text each time, as a chat's messages are (a repeated text would flatter deflate). */
function text(i: number): string {
  const n = 1 + (i % 3);
  return (
    Array.from({ length: n }, (_, k) => SENTENCES[(i * 7 + k * 3) % SENTENCES.length]).join(' ') +
    ` (${i * 7919})`
  );
}

/** One event as the hub sends it: SendEvent(name, data, entityKey) with the message it carries. */
function hubFrame(i: number): string {
  const message = {
    id: 1000 + i,
    conversation: 42,
    message: text(i),
    loggedDate: new Date(Date.UTC(2026, 10, 25, 12, 0, i % 60)).toISOString(),
    authorKind: 'agent',
    contactId: null,
    contactName: null,
    agentId: 7,
    agentName: 'Kim',
    createdAfterClosedConversation: false,
  };
  const data = { conversationId: 42, messageId: 1000 + i, message };
  return (
    JSON.stringify({
      type: 1,
      target: 'SendEvent',
      arguments: ['ConversationMessageCreated', data, 'Conversation:42'],
    }) + RS
  );
}

// ---- the server process -------------------------------------------------------------------------
function serve(setting: Setting) {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: SETTINGS[setting] });
  const sockets: WebSocket[] = [];
  wss.on('connection', (ws) => sockets.push(ws));
  wss.on('listening', () => {
    const address = wss.address();
    process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
  });
  process.on(
    'message',
    (command: { kind: 'memory' } | { kind: 'send'; events: number; receivers: number }) => {
      if (command.kind === 'memory') {
        global.gc?.();
        const m = process.memoryUsage();
        process.send?.({ rss: m.rss, heap: m.heapUsed, external: m.external, connections: sockets.length });
        return;
      }
      const targets = sockets.slice(0, command.receivers);
      const raw = targets.map(
        (ws) => (ws as unknown as { _socket: { bytesWritten: number } })._socket.bytesWritten,
      );
      let i = 0;
      const next = () => {
        if (i === command.events) {
          const written = targets.map(
            (ws, k) =>
              (ws as unknown as { _socket: { bytesWritten: number } })._socket.bytesWritten - raw[k]!,
          );
          process.send?.({ bytes: written.reduce((a, b) => a + b, 0) });
          return;
        }
        const frame = hubFrame(i++);
        let pending = targets.length;
        for (const ws of targets) ws.send(frame, () => --pending === 0 && setImmediate(next));
      };
      next();
    },
  );
}

// ---- the measuring process ----------------------------------------------------------------------
function ask<T>(child: ChildProcess, message: object): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (answer) => resolve(answer as T));
    child.send(message);
  });
}

async function measure(setting: Setting) {
  const child = fork(fileURLToPath(import.meta.url), ['serve', setting], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
  });
  try {
    const { port } = await new Promise<{ port: number }>((resolve) =>
      child.once('message', (m) => resolve(m as { port: number })),
    );
    const before = await ask<{ rss: number; heap: number; external: number }>(child, { kind: 'memory' });
    const clients: WebSocket[] = [];
    for (let i = 0; i < CONNECTIONS; i += 200) {
      const batch = Math.min(200, CONNECTIONS - i);
      clients.push(
        ...(await Promise.all(
          Array.from(
            { length: batch },
            () =>
              new Promise<WebSocket>((resolve, reject) => {
                // Every client offers the extension, as browsers do; the server decides.
                const ws = new WebSocket(`ws://127.0.0.1:${port}`, { perMessageDeflate: true });
                ws.on('open', () => resolve(ws));
                ws.on('error', reject);
              }),
          ),
        )),
      );
    }
    const after = await ask<{ rss: number; heap: number; external: number; connections: number }>(child, {
      kind: 'memory',
    });
    const received = new Promise<void>((resolve) => {
      let left = RECEIVERS * EVENTS;
      for (const ws of clients.slice(0, RECEIVERS)) ws.on('message', () => --left === 0 && resolve());
    });
    const { bytes } = await ask<{ bytes: number }>(child, {
      kind: 'send',
      events: EVENTS,
      receivers: RECEIVERS,
    });
    await received;
    const afterSending = await ask<{ rss: number; heap: number; external: number }>(child, {
      kind: 'memory',
    });
    for (const ws of clients) ws.terminate();
    return {
      setting,
      negotiated: clients[0]?.extensions ?? '',
      connections: after.connections,
      rssBytesPerConnection: Math.round((after.rss - before.rss) / CONNECTIONS),
      heapAndExternalBytesPerConnection: Math.round(
        (after.heap + after.external - before.heap - before.external) / CONNECTIONS,
      ),
      rssBytesPerConnectionAfterSending: Math.round((afterSending.rss - before.rss) / CONNECTIONS),
      wireBytesPerEvent: Math.round(bytes / (EVENTS * RECEIVERS)),
      jsonBytesPerEvent: Math.round(
        Array.from({ length: EVENTS }, (_, i) => Buffer.byteLength(hubFrame(i))).reduce((a, b) => a + b, 0) /
          EVENTS,
      ),
    };
  } finally {
    child.kill();
  }
}

if (process.argv[2] === 'serve') {
  serve(process.argv[3] as Setting);
} else {
  runBench(async () => {
    const results = [];
    for (const setting of Object.keys(SETTINGS) as Setting[]) results.push(await measure(setting));
    printReport({ connections: CONNECTIONS, events: EVENTS, receivers: RECEIVERS, results });
  });
}
