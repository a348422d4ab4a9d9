/**
 * The API calls a child makes, at an open-loop rate (npm run bench:api). A
 * production-like server process (NODE_ENV=production, `tsx server/main.ts`) on a fresh SQLite file,
 * or with BENCH_DB=postgres on PostgreSQL with Redis; realistic volume seeded into its database
 * (bench/api-seed.ts: 500 children with their chat and mail history, 100 support-group participants
 * with meetings and group chats, counsellors, a Peers board); every child and participant signs in
 * through /connect/token, each from an address of its own (X-Forwarded-For through TRUST_PROXY, as
 * behind the site's proxy), so no per-address brake or limit is what is measured.
 *
 * Then requests go out at BENCH_RATE per second (500) for BENCH_SECONDS (30) after BENCH_WARMUP_SECONDS
 * (5, not counted), each to a random signed-in user, in the mix of calls the worker makes (its sync
 * modules: conversation lists, messages, notification count, profile, meetings, Peers ...) with a
 * few messages written. Open loop: request i is due at start + i / rate whether or not earlier ones
 * have answered, and its latency runs from that due time to the answer's last byte, so a slow
 * server cannot hide its queue (no coordinated omission). Keep-alive connections, Accept-Encoding
 * as a browser sends it. Reports p50/p99/max per call and the error count (anything but 2xx, and
 * 409 where the call answers it by design).
 *
 * BENCH_PROCESSES=N (with BENCH_DB=postgres) runs the scale-out deployment instead: `npm run cluster`'s
 * N server processes behind nginx (scripts/cluster.ts), the requests going through nginx. Users sign
 * in at the processes directly, each from an address of its own as above; through nginx every
 * request comes from nginx's address, so the cluster runs with the benches' raised limits.
 *
 * BENCH_WITHOUT_LIST_INDEXES=1 drops the indexes of migration 0006-list-indexes before seeding: the
 * "before" figures. BENCH_CHILDREN sets the number of children; BENCH_PORT the port (8350).
 */
import http from 'node:http';
import os from 'node:os';
import { sql } from 'kysely';
import { createTestDatabase } from '../harness/test-server.ts';
import { BENCH_LIMITS, PRODUCTION_ENV, startServerProcess } from '../harness/server-process.ts';
import { freeClusterPort, startCluster } from '../harness/cluster/cluster.ts';
import { openDatabase } from '../server/db/database.ts';
import { LIST_INDEXES } from '../server/db/migrations/0006-list-indexes.ts';
import { BENCH_PASSWORD, DEFAULT_SIZE, seedVolume, type Seeded } from './api-seed.ts';
import { latencySummary, printReport, runBench } from './support.ts';

const POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = 'redis://127.0.0.1:6379';
const DB = process.env.BENCH_DB === 'postgres' ? 'postgres' : 'sqlite';
const RATE = Number(process.env.BENCH_RATE ?? 500);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
const PORT = Number(process.env.BENCH_PORT ?? 8350);
const PROCESSES = Number(process.env.BENCH_PROCESSES ?? 0);
/** Where the load goes (the server, or nginx in front of the cluster) and where users sign in. */
const target = { loadPort: PORT, signInPorts: [PORT] };
const WITHOUT_INDEXES = process.env.BENCH_WITHOUT_LIST_INDEXES === '1';
const SIZE = { ...DEFAULT_SIZE, children: Number(process.env.BENCH_CHILDREN ?? DEFAULT_SIZE.children) };

const APP = '/portal/features/conversations/conversationsapplication-id';
const MEETINGS = '/portal/features/meetings/meetingsapplicationfeature-id';
const PROFILE = '/portal/features/contacts/contactsapplicationfeature-id/detail';

const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });

interface User {
  token: string;
  /** The address the user's requests come from (X-Forwarded-For). */
  address: string;
}

interface Request {
  method: 'GET' | 'POST';
  path: string;
  user: User;
  body?: unknown;
}

/** One HTTP exchange; resolves with the status (0 for a failed connection) once the body has arrived. */
function send(req: Request, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);
    const outgoing = http.request(
      {
        agent,
        host: '127.0.0.1',
        port: target.loadPort,
        method: req.method,
        path: req.path,
        headers: {
          'X-App-Variant': 'Peers',
          'X-Forwarded-For': req.user.address,
          'Accept-Encoding': 'gzip, deflate, br',
          ...(req.user.token ? { Authorization: `Bearer ${req.user.token}` } : {}),
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...headers,
        },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString() }));
        res.on('error', () => resolve({ status: 0, body: '' }));
      },
    );
    outgoing.on('error', () => resolve({ status: 0, body: '' }));
    outgoing.end(body);
  });
}

/** Sign-ins so far: they take the processes in turn. */
let signIns = 0;

/** A password or personal-code login at the token endpoint, from `address`. */
async function signIn(username: string, password: string, address: string): Promise<User> {
  const port = target.signInPorts[signIns++ % target.signInPorts.length]!;
  const form = new URLSearchParams({
    grant_type: 'password',
    client_id: 'portal-web',
    scope: 'openid profile portal offline_access',
    username,
    password,
  }).toString();
  const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const outgoing = http.request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/connect/token',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': address },
      },
      (r) => {
        let text = '';
        r.on('data', (d: Buffer) => (text += d.toString()));
        r.on('end', () => resolve({ status: r.statusCode ?? 0, body: text }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(form);
  });
  if (res.status !== 200) throw new Error(`login ${username} failed: ${res.status} ${res.body}`);
  return { token: (JSON.parse(res.body) as { access_token: string }).access_token, address };
}

/** Runs `task` over `items`, `concurrency` at a time. */
async function inParallel<T, R>(items: T[], concurrency: number, task: (item: T, i: number) => Promise<R>) {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await task(items[i]!, i);
      }
    }),
  );
  return results;
}

const addressOf = (group: number, i: number) => `10.${group}.${(i >> 8) & 255}.${i & 255}`;

interface SignedIn {
  children: Array<User & { openMailId: number; conversationIds: number[] }>;
  participants: Array<User & { meetingIds: number[]; groupChatIds: number[] }>;
}

interface Call {
  name: string;
  weight: number;
  /** Statuses that are answers, not errors, besides 2xx. */
  alsoFine?: number[];
  make(pick: <T>(list: T[]) => T, s: SignedIn): Request;
}

const fromDate = () => new Date(Date.now() - 30 * 24 * 3600_000).toISOString();

/** The calls of the worker's sync modules, weighted by how often an open app makes them. */
const CALLS: Call[] = [
  {
    name: 'child: conversations (mine)',
    weight: 12,
    make: (pick, s) => ({
      method: 'GET',
      path: `${APP}/conversations?take=9999&skip=0&selection=mine`,
      user: pick(s.children),
    }),
  },
  {
    name: 'child: conversations (active)',
    weight: 8,
    make: (pick, s) => ({
      method: 'GET',
      path: `${APP}/conversations?take=999&skip=0&selection=active`,
      user: pick(s.children),
    }),
  },
  {
    name: 'child: messages of a conversation',
    weight: 12,
    make: (pick, s) => {
      const child = pick(s.children);
      return {
        method: 'GET',
        path: `${APP}/messages?conversation=${pick(child.conversationIds)}`,
        user: child,
      };
    },
  },
  {
    name: 'child: notification count',
    weight: 14,
    make: (pick, s) => ({
      method: 'GET',
      path: `/portal/api/notifications/count?isProcessed=false&fromDate=${fromDate()}`,
      user: pick(s.children),
    }),
  },
  {
    name: 'child: notifications',
    weight: 4,
    make: (pick, s) => ({
      method: 'GET',
      path: `/portal/api/notifications?fromDate=${fromDate()}`,
      user: pick(s.children),
    }),
  },
  {
    name: 'child: contact messages',
    weight: 4,
    make: (pick, s) => ({ method: 'GET', path: '/portal/contactmessages', user: pick(s.children) }),
  },
  {
    name: 'child: profile',
    weight: 5,
    make: (pick, s) => ({ method: 'GET', path: PROFILE, user: pick(s.children) }),
  },
  {
    name: 'child: account',
    weight: 3,
    make: (pick, s) => ({ method: 'GET', path: '/portal/accounts', user: pick(s.children) }),
  },
  {
    name: 'child: chat account status',
    weight: 5,
    // A child with a chat in the queue is told so with 409 (SPEC §3 chat account status).
    alsoFine: [409],
    make: (pick, s) => ({ method: 'GET', path: '/portal/chatAccountStatus', user: pick(s.children) }),
  },
  {
    name: 'child: Peers board',
    weight: 6,
    make: (pick, s) => ({ method: 'GET', path: '/portal/api/peers/posts', user: pick(s.children) }),
  },
  {
    name: 'child: own Peers posts',
    weight: 3,
    make: (pick, s) => ({ method: 'GET', path: '/portal/api/peers/my-posts', user: pick(s.children) }),
  },
  {
    name: 'child: write in a mail thread',
    weight: 4,
    make: (pick, s) => {
      const child = pick(s.children);
      return {
        method: 'POST',
        path: '/portal/conversationmessage',
        user: child,
        body: { conversation: child.openMailId, content: 'Hej igen, jag undrar en sak till.' },
      };
    },
  },
  {
    name: 'participant: meetings',
    weight: 8,
    make: (pick, s) => ({ method: 'GET', path: `${MEETINGS}/meetings`, user: pick(s.participants) }),
  },
  {
    name: 'participant: one meeting',
    weight: 3,
    make: (pick, s) => {
      const p = pick(s.participants);
      return { method: 'GET', path: `${MEETINGS}/meeting?meetingId=${pick(p.meetingIds)}`, user: p };
    },
  },
  {
    name: 'participant: group chat messages',
    weight: 5,
    make: (pick, s) => {
      const p = pick(s.participants);
      return {
        method: 'GET',
        path: `/portal/groupconversationmessages?conversationId=${pick(p.groupChatIds)}`,
        user: p,
      };
    },
  },
  {
    name: 'participant: conversations (mine)',
    weight: 4,
    make: (pick, s) => ({
      method: 'GET',
      path: `${APP}/conversations?take=9999&skip=0&selection=mine`,
      user: pick(s.participants),
    }),
  },
];

async function signInAll(seeded: Seeded): Promise<SignedIn> {
  const children = await inParallel(seeded.children, 4, async (c, i) => ({
    ...(await signIn(c.username, BENCH_PASSWORD, addressOf(1, i))),
    openMailId: c.openMailId,
    conversationIds: c.conversationIds,
  }));
  const participants = await inParallel(seeded.participants, 4, async (p, i) => ({
    ...(await signIn(p.code, '', addressOf(2, i))),
    meetingIds: p.meetingIds,
    groupChatIds: p.groupChatIds,
  }));
  return { children, participants };
}

/** The open-loop run: every request at its due time, latency from that due time. */
async function drive(users: SignedIn) {
  let seed = 42;
  const rnd = () => {
    seed = (seed * 1664525 + 1013904223) % 4294967296;
    return seed / 4294967296;
  };
  const pick = <T>(list: T[]): T => list[Math.floor(rnd() * list.length)]!;
  const totalWeight = CALLS.reduce((sum, c) => sum + c.weight, 0);
  const pickCall = () => {
    let r = rnd() * totalWeight;
    for (const call of CALLS) if ((r -= call.weight) < 0) return call;
    return CALLS.at(-1)!;
  };

  const interval = 1000 / RATE;
  const total = Math.round((WARMUP_SECONDS + SECONDS) * RATE);
  const counted = Math.round(WARMUP_SECONDS * RATE);
  const results = new Map<
    string,
    { latencies: number[]; statuses: Record<string, number>; errors: number }
  >();
  for (const call of CALLS) results.set(call.name, { latencies: [], statuses: {}, errors: 0 });
  const inFlight = new Set<Promise<void>>();
  let maxInFlight = 0;
  const start = performance.now() + 50;
  let i = 0;
  let lastSent = 0;

  await new Promise<void>((done) => {
    const tick = () => {
      const now = performance.now();
      while (i < total && start + i * interval <= now) {
        const due = start + i * interval;
        const call = pickCall();
        const measured = i >= counted;
        const request = call.make(pick, users);
        const exchange = send(request).then(({ status }) => {
          if (!measured) return;
          const r = results.get(call.name)!;
          r.latencies.push(performance.now() - due);
          r.statuses[String(status)] = (r.statuses[String(status)] ?? 0) + 1;
          if (!((status >= 200 && status < 300) || call.alsoFine?.includes(status))) r.errors++;
        });
        inFlight.add(exchange);
        void exchange.then(() => inFlight.delete(exchange));
        maxInFlight = Math.max(maxInFlight, inFlight.size);
        lastSent = now;
        i++;
      }
      if (i < total) setTimeout(tick, 1);
      else done();
    };
    tick();
  });
  await Promise.all(inFlight);
  const firstDue = start + counted * interval;
  const measuredSeconds = (lastSent - firstDue) / 1000;
  // What the server got through: the counted requests over the time from the first one's due time
  // to the last answer. Below the target rate, the server could not keep up and the queue grew.
  const servedRate = (total - counted) / ((performance.now() - firstDue) / 1000);
  return { results, maxInFlight, measuredSeconds, servedRate, requests: total - counted };
}

async function main() {
  if (DB === 'postgres') process.env.DATABASE_URL = POSTGRES_URL;
  const database = await createTestDatabase();
  const env = {
    ...PRODUCTION_ENV,
    // Peers is the one variant that serves the Peers calls; every other call is the same in all.
    APP_VARIANT: 'peers',
  };
  let server: { stop(): Promise<void> };
  if (PROCESSES > 0) {
    if (DB !== 'postgres') throw new Error('BENCH_PROCESSES needs BENCH_DB=postgres');
    const cluster = await startCluster({
      processes: PROCESSES,
      port: await freeClusterPort(PROCESSES),
      databaseUrl: database.url,
      redisUrl: REDIS_URL,
      clientDir: '/nonexistent-client',
      env: { ...env, ...BENCH_LIMITS },
    });
    target.loadPort = Number(new URL(cluster.url).port);
    target.signInPorts = cluster.nodes.map((n) => n.port);
    server = cluster;
  } else {
    server = await startServerProcess({
      DATABASE_URL: database.url,
      ...env,
      TRUST_PROXY: 'loopback',
      PORT: String(PORT),
      ...(DB === 'postgres' ? { REDIS_URL } : {}),
    });
  }
  try {
    const open = openDatabase(database.url);
    let seeded: Seeded;
    const seedStart = performance.now();
    try {
      if (WITHOUT_INDEXES) {
        for (const name of Object.keys(LIST_INDEXES)) await sql`DROP INDEX ${sql.id(name)}`.execute(open.db);
      }
      seeded = await seedVolume(open.db, SIZE);
      // A database in use has its statistics (PostgreSQL's autovacuum gathers them); SQLite's
      // planner goes by the indexes alone, as the server never runs ANALYZE.
      if (DB === 'postgres') await sql`ANALYZE`.execute(open.db);
    } finally {
      await open.close();
    }
    const seedSeconds = (performance.now() - seedStart) / 1000;
    const loginStart = performance.now();
    const users = await signInAll(seeded);
    const loginSeconds = (performance.now() - loginStart) / 1000;

    const loadBefore = os.loadavg()[0]!;
    const run = await drive(users);
    const loadAfter = os.loadavg()[0]!;
    const perCall: Record<string, unknown> = {};
    const all: number[] = [];
    let errors = 0;
    for (const [name, r] of run.results) {
      all.push(...r.latencies);
      errors += r.errors;
      perCall[name] = {
        requests: r.latencies.length,
        ...latencySummary(r.latencies, 1),
        errors: r.errors,
        statuses: r.statuses,
      };
    }
    printReport({
      database: DB,
      processes: PROCESSES > 0 ? `${PROCESSES} behind nginx` : 1,
      listIndexes: WITHOUT_INDEXES ? 'dropped (before)' : 'present',
      seeded: seeded.rows,
      children: users.children.length,
      participants: users.participants.length,
      seedSeconds: Number(seedSeconds.toFixed(1)),
      loginSeconds: Number(loginSeconds.toFixed(1)),
      targetRate: RATE,
      sentRate: Math.round(run.requests / run.measuredSeconds),
      servedRate: Math.round(run.servedRate),
      // The machine is shared: its 1-minute load average before and after the run, beside its cores.
      loadAverage: {
        before: Number(loadBefore.toFixed(1)),
        after: Number(loadAfter.toFixed(1)),
        cores: os.cpus().length,
      },
      seconds: SECONDS,
      requests: run.requests,
      maxInFlight: run.maxInFlight,
      errors,
      all: latencySummary(all, 1),
      perCall,
    });
    if (errors > 0) process.exitCode = 1;
  } finally {
    agent.destroy();
    await server.stop();
    await database.drop();
  }
}

runBench(main);
