// `npm run chaos`: children running the real worker core write to counsellors through `npm run cluster`
// (server processes on PostgreSQL and Redis behind nginx) while a seeded schedule of faults hits every
// part; at the end PostgreSQL and every child's own database are compared. Exits non-zero on any loss,
// duplicate, reordering, divergence or dangling hub subscription, printing each.
//
//   CHAOS_MESSAGES  messages to write, children and counsellors together (1000)
//   CHAOS_CHILDREN  children, each with a live chat and a mail thread (10); besides them, the demo
//                   group's three participants in a meeting's group chat with their leader
//   CHAOS_BROWSERS  children in Debian Chromium (the built app), each writing in a mail thread (2)
//   CHAOS_SEED      replays a run's fault schedule and choices (random, printed)
//   CHAOS_PROCESSES server processes behind nginx (2)
//
// PostgreSQL and Redis are the run's own (a fresh PostgreSQL cluster in a temporary folder, a Redis
// on a free port), so that restarting them hits nothing else on the machine.
import { randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { freeClusterPort, startCluster, type Cluster } from '../harness/cluster/cluster.ts';
import { freePort } from '../harness/server-process.ts';
import { startRedis, stopRedis } from '../harness/redis-process.ts';
import { startPostgres } from '../harness/postgres-process.ts';
import { readMetrics } from '../harness/metrics-text.ts';
import { login } from '../harness/test-server.ts';
import { ChaosChild, CHILD_PASSWORD, type ChaosClient, type Sent } from './chaos-client.ts';
import { ChaosBrowserChild } from './chaos-browser.ts';
import { launchChromium } from '../harness/chromium.ts';
import { buildClientIfStale } from '../scripts/client-build.ts';
import { verdictOf } from './chaos-verdict.ts';
import { prepareRelease, type Release } from '../scripts/release.ts';
import { PROBE_COLUMN, withProbeMigration } from '../harness/next-release.ts';
import fs from 'node:fs';
import path from 'node:path';

const MESSAGES = Number(process.env.CHAOS_MESSAGES ?? 1000);
const CHILDREN = Number(process.env.CHAOS_CHILDREN ?? 10);
const PROCESSES = Number(process.env.CHAOS_PROCESSES ?? 2);
const BROWSERS = Number(process.env.CHAOS_BROWSERS ?? 2);
const SEED = Number(process.env.CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31));
/** A child or a counsellor writes every 2 to 4 s: a person typing, not a load generator. */
const WRITE_EVERY_MS: [number, number] = [2000, 4000];
/** A PostgreSQL restart keeps it down this long (ms), at random in the range. */
const POSTGRES_DOWN_MS: [number, number] = [5000, 15000];
/** A process restarted with FAULT_KILL_AFTER_CREATE kills itself after this many creates, at random. */
const CREATES_BEFORE_KILL: [number, number] = [1, 5];

/** mulberry32: a small seeded generator, so a seed replays the same schedule and choices. */
function seeded(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    between: (low: number, high: number) => Math.round(low + next() * (high - low)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}

const FAULTS = [
  'kill -9 a server process',
  'kill -9 inside a write',
  'restart PostgreSQL',
  'rolling upgrade',
  'restart Redis',
  'reload nginx',
  'cut PostgreSQL connections',
  'child offline and back',
  'worker killed and recreated',
  'child closed with messages queued',
] as const;
type FaultKind = (typeof FAULTS)[number];
interface Fault {
  atMs: number;
  kind: FaultKind;
  /** The process or child it hits, where it hits one. */
  target: number;
  /** How long the thing stays down. */
  downMs: number;
  /** 'kill -9 inside a write': the process dies right after this many creates committed. */
  creates: number;
}

/** Faults that hit one server process (the others hit a child). */
const hitsProcess = (kind: FaultKind) => kind.startsWith('kill');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (line: string) => console.info(`${new Date().toISOString().slice(11, 23)} ${line}`);

/** The schedule: every fault kind at least once, spread evenly over the expected writing time. */
function scheduleOf(random: ReturnType<typeof seeded>, writingMs: number): Fault[] {
  const count = Math.max(FAULTS.length, Math.floor(writingMs / 9000));
  const kinds: FaultKind[] = [];
  while (kinds.length < count) {
    const round = [...FAULTS];
    for (let i = round.length - 1; i > 0; i--) {
      const j = Math.floor(random.next() * (i + 1));
      [round[i], round[j]] = [round[j]!, round[i]!];
    }
    kinds.push(...round);
  }
  const gap = writingMs / (count + 1);
  return kinds.slice(0, count).map((kind, i) => ({
    atMs: Math.round(gap * (i + 1)),
    kind,
    target: hitsProcess(kind) ? random.between(0, PROCESSES - 1) : random.between(0, CHILDREN - 1),
    downMs:
      kind === 'restart PostgreSQL'
        ? random.between(...POSTGRES_DOWN_MS)
        : random.between(1000, Math.min(5000, Math.floor(gap * 0.6))),
    creates: random.between(...CREATES_BEFORE_KILL),
  }));
}

/** What the staff writers were answered with: replays of a key, and each 5xx status before a retry. */
const staffSeen = { replayed: 0, retried: new Map<number, number>() };

/** A staff call that is retried as the staff console's outbox would: same key, until it is answered. */
async function staffCall(
  url: string,
  token: string,
  path: string,
  body?: unknown,
  key = randomUUID(),
): Promise<{ status: number; body: unknown; attempts: number }> {
  const deadline = Date.now() + 90_000;
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await fetch(`${url}/portal/staff${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          Authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json', 'Idempotency-Key': key }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
      const text = await res.text();
      if (res.headers.get('idempotent-replayed') === 'true') staffSeen.replayed++;
      const retry = res.status === 429 || res.status >= 500;
      if (res.status >= 500) staffSeen.retried.set(res.status, (staffSeen.retried.get(res.status) ?? 0) + 1);
      if (!retry || Date.now() > deadline) {
        return { status: res.status, body: text ? JSON.parse(text) : null, attempts: attempt };
      }
      const after = Number(res.headers.get('retry-after') ?? 0) * 1000;
      await sleep(Math.max(after, Math.min(2000, 100 * 2 ** attempt)));
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(Math.min(2000, 100 * 2 ** attempt));
    }
  }
}

const staffLogin = async (url: string, username = 'kurator', password = 'kurator-losenord') =>
  (await login(url, username, password, 'portal-staff')).access_token;

/** A child account through the public registration, as the app's form makes it. */
async function registerChild(site: string, name: string): Promise<void> {
  const registered = await fetch(`${site}/portal/api/accounts/registercontact`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-App-Variant': 'Barn' },
    body: JSON.stringify({ username: name, password: CHILD_PASSWORD, properties: { birthYear: '2011' } }),
  });
  if (registered.status !== 201) throw new Error(`registration of ${name}: ${registered.status}`);
}

async function main() {
  const random = seeded(SEED);
  // Writers: each child and its counsellor, each participant, the leader, each browser and its counsellor.
  const writingMs = Math.round(
    (MESSAGES / (CHILDREN * 2 + 4 + BROWSERS * 2)) * ((WRITE_EVERY_MS[0] + WRITE_EVERY_MS[1]) / 2),
  );
  const schedule = scheduleOf(random, writingMs);
  console.info(
    `chaos: seed ${SEED}, ${MESSAGES} messages, ${CHILDREN} children and a group of 3 with its leader, ${PROCESSES} processes, about ${Math.round(writingMs / 1000)} s of writing`,
  );
  console.info('fault schedule (replay with CHAOS_SEED=' + SEED + '):');
  for (const f of schedule) {
    const target = hitsProcess(f.kind)
      ? ` n${f.target + 1}${f.kind === 'kill -9 inside a write' ? ` after ${f.creates} creates` : ''}`
      : f.kind.startsWith('child') || f.kind.startsWith('worker')
        ? f.target < CHILDREN
          ? ` child ${f.target + 1}`
          : f.target < CHILDREN + 3
            ? ` participant ${f.target - CHILDREN + 1}`
            : ` browser ${f.target - CHILDREN - 2}`
        : '';
    console.info(`  +${(f.atMs / 1000).toFixed(1).padStart(5)} s  ${f.kind}${target}, down ${f.downMs} ms`);
  }

  const postgres = await startPostgres();
  const POSTGRES = postgres.url.replace(/\/postgres$/, '');
  const databaseName = `chaos_${SEED}_${process.pid}`;
  const databaseUrl = `${POSTGRES}/${databaseName}`;
  const redisPort = await freePort();
  let redis: ChildProcess = await startRedis(redisPort);
  let cluster: Cluster | null = null;
  const children: ChaosClient[] = [];
  const browser = BROWSERS > 0 ? await launchChromium() : null;
  /** A statement on the maintenance database, on a connection of its own (PostgreSQL restarts). */
  const adminQuery = async (text: string, values: unknown[] = []) => {
    const admin = new pg.Client({ connectionString: `${POSTGRES}/postgres` });
    await admin.connect();
    try {
      return await admin.query(text, values);
    } finally {
      await admin.end();
    }
  };
  const discrepancies: string[] = [];
  /** Per 'kill -9 inside a write': the processes whose replays answered the retry of the killed write. */
  const killedWrites: string[] = [];
  try {
    for (let attempt = 0; !cluster; attempt++) {
      try {
        cluster = await startCluster({
          processes: PROCESSES,
          port: await freeClusterPort(PROCESSES),
          databaseUrl,
          redisUrl: `redis://127.0.0.1:${redisPort}`,
          clientDir: BROWSERS > 0 ? buildClientIfStale() : '/nonexistent-client',
          // One counsellor account and one address write what several would: limits times five.
          env: { RATE_LIMIT_FACTOR: '5' },
          // It drives the demo's counsellor, support group and participants.
          demoSeed: true,
          // Each browser child comes through a fault proxy of its own, at its own loopback origin.
          origin: 'loopback',
          log: (line) => {
            if (/warn|error|broke|lost|reconnected/i.test(line)) log(line);
          },
        });
      } catch (error) {
        if (attempt >= 3 || !String(error).includes('is taken')) throw error;
      }
    }
    const site = cluster.url;
    // The release a 'rolling upgrade' rolls out: the server with one migration more (a column
    // added), and the client built again with a BUILD_ID of its own.
    log('preparing the next release (a client build)...');
    const nextRelease: Release = withProbeMigration(
      await prepareRelease({
        client: BROWSERS > 0 ? 'build' : null,
        previousClientDir: cluster.release().clientDir,
      }),
    );
    log(`next release ${nextRelease.id} ready`);
    log(
      `cluster up at ${site}; Redis on ${redisPort}; PostgreSQL on ${postgres.port}, database ${databaseName}`,
    );

    // Children: registered, signed in, each with a live chat accepted by the counsellor and a mail.
    const counsellor = await staffLogin(site);
    for (let i = 0; i < CHILDREN; i++) {
      const name = `chaos${i + 1}x${SEED % 100000}`;
      await registerChild(site, name);
      const child = await ChaosChild.create(name, site);
      children.push(child);
      await child.open();
      await child.signIn();
      const chat = await child.startChat();
      const accepted = await staffCall(site, counsellor, `/conversations/${chat}/accept`, {});
      if (accepted.status !== 200) throw new Error(`accept ${chat}: ${accepted.status}`);
      await child.startMail();
    }
    log(`${CHILDREN} children signed in, each in a chat and a mail thread`);

    // A support group: the demo series' meeting in progress, its three participants in its group
    // chat (the worker core, as the meeting page runs it) and its leader writing through the staff API.
    const leader = await staffLogin(site, 'gruppledare', 'gruppledare-losenord');
    const created = await staffCall(site, leader, '/meetings', {
      seriesId: 1,
      subject: 'Chaos',
      description: 'Chaos',
      startDate: new Date().toISOString(),
      duration: 120,
    });
    const meetingId = (created.body as { id: number }).id;
    const startedMeeting = await staffCall(site, leader, `/meetings/${meetingId}/start`, {});
    const meeting = { id: meetingId, ...(startedMeeting.body as { conversation?: { id: number } | null }) };
    if (!meeting.conversation) throw new Error(`the group's meeting did not start: ${startedMeeting.status}`);
    const groupChat = meeting.conversation.id;
    const participants: ChaosChild[] = [];
    for (const code of ['DEMOKOD-0001', 'DEMOKOD-0002', 'DEMOKOD-0003']) {
      const participant = await ChaosChild.create(code, site);
      participants.push(participant);
      await participant.open();
      await participant.signIn(null);
      await participant.joinGroupChat(groupChat);
    }
    children.push(...participants);

    // Children in real browsers: signed in through the start page, writing through the thread page.
    for (let i = 0; i < BROWSERS; i++) {
      const name = `chaosweb${i + 1}x${SEED % 100000}`;
      await registerChild(site, name);
      const web = await ChaosBrowserChild.create(browser!, name, site);
      children.push(web);
      await web.signInAndStartMail(site);
    }
    if (BROWSERS > 0) log(`${BROWSERS} children in Chromium, each in a mail thread`);
    log(`the group: meeting ${meeting.id}, its chat ${groupChat}, three participants and their leader`);

    // Writing: each child and, for each child, the counsellor, every 2 to 4 s, to either conversation.
    const counsellorSent: Sent[] = [];
    const counsellorFailed: string[] = [];
    let issued = CHILDREN + BROWSERS; // the mails' first messages
    let writing = true;
    const counsellorSeq = new Map<number, number>();
    let leaderSeq = 0;
    const leaderWriter = (async () => {
      while (writing && issued < MESSAGES) {
        await sleep(random.between(...WRITE_EVERY_MS));
        if (!writing || issued >= MESSAGES) break;
        issued++;
        const seq = ++leaderSeq;
        const text = `ledare #${seq} hej`;
        const answer = await staffCall(site, leader, `/meetings/${meeting.id}/messages`, { content: text });
        if (answer.status === 201)
          counsellorSent.push({ conversationId: groupChat, text, sender: 'ledare', seq });
        else counsellorFailed.push(`${text}: ${answer.status} ${JSON.stringify(answer.body)}`);
      }
    })();
    const writers = children.flatMap((child, i) => [
      (async () => {
        while (writing && issued < MESSAGES) {
          await sleep(random.between(...WRITE_EVERY_MS));
          if (!writing || issued >= MESSAGES) break;
          if (await child.write(random.pick(child.conversations))) issued++;
        }
      })(),
      (async () => {
        // A participant's group has its leader (above); a child has the counsellor.
        if (child.groupChats.size > 0) return;
        while (writing && issued < MESSAGES) {
          await sleep(random.between(...WRITE_EVERY_MS));
          if (!writing || issued >= MESSAGES) break;
          issued++;
          const conversationId = random.pick(child.conversations);
          const seq = (counsellorSeq.get(i) ?? 0) + 1;
          counsellorSeq.set(i, seq);
          const sender = `kurator-${i + 1}`;
          const text = `${sender} #${seq} hej`;
          // In order per conversation: the next one waits for this one's answer, as a person waits.
          const answer = await staffCall(site, counsellor, `/conversations/${conversationId}/messages`, {
            content: text,
          });
          if (answer.status === 201 || answer.status === 200)
            counsellorSent.push({ conversationId, text, sender, seq });
          else counsellorFailed.push(`${text}: ${answer.status} ${JSON.stringify(answer.body)}`);
        }
      })(),
    ]);

    const replaysOf = async (nodes: number[]) =>
      new Map(
        await Promise.all(
          nodes.map(
            async (i) =>
              [
                i,
                (await readMetrics(cluster!.nodes[i]!.url)).get(
                  'http_retry_signals_total{kind="idempotent_replay"}',
                ) ?? 0,
              ] as const,
          ),
        ),
      );
    const others = (target: number) => cluster!.nodes.map((_, i) => i).filter((i) => i !== target);

    /**
     * A process restarted with FAULT_KILL_AFTER_CREATE dies with SIGKILL right after a create of its
     * committed, before its answer left. The write's retry (nginx's, to another process, or the
     * writer's own, with the same Idempotency-Key) must be answered from the key: a replay, seen in
     * /metrics of another process or of the restarted one. Then the process runs normally again.
     */
    const killInsideWrite = async (fault: Fault) => {
      const target = fault.target;
      const before = await replaysOf(others(target));
      await cluster!.kill(target, 'SIGTERM');
      await cluster!.start(target, { FAULT_KILL_AFTER_CREATE: String(fault.creates) });
      log(`n${target + 1} restarted with FAULT_KILL_AFTER_CREATE=${fault.creates}`);
      const died = await Promise.race([
        cluster!.untilExit(target),
        sleep(60_000).then(() => 'alive' as const),
      ]);
      if (died === 'alive') {
        discrepancies.push(`kill -9 inside a write: n${target + 1} had not died after 60 s`);
        await cluster!.kill(target, 'SIGKILL');
      } else if (died !== 'SIGKILL') {
        discrepancies.push(`kill -9 inside a write: n${target + 1} ended with ${died}, not SIGKILL`);
      }
      log(
        `n${target + 1} died (${died}) after ${fault.creates} creates; restarting it without the fault point`,
      );
      await cluster!.start(target);
      // The killed write's retry is answered from its key, by a process that counts the replay.
      const deadline = Date.now() + 30_000;
      for (;;) {
        const now = await replaysOf(cluster!.nodes.map((_, i) => i));
        const by = [...now]
          .map(([i, count]) => [i, count - (before.get(i) ?? 0)] as const)
          .filter(([, count]) => count > 0);
        if (by.length > 0) {
          const where = by.map(([i, count]) => `n${i + 1}${i === target ? ' (restarted)' : ''}: ${count}`);
          killedWrites.push(where.join(', '));
          log(`the killed write's retry was replayed: ${where.join(', ')}`);
          break;
        }
        if (Date.now() > deadline) {
          discrepancies.push(`kill -9 inside a write: no replay of the killed write on any process in 30 s`);
          break;
        }
        await sleep(250);
      }
    };

    /** /healthz of every running process, until each answers `status` or the deadline passes. */
    const untilHealth = async (status: number, timeoutMs: number): Promise<string[]> => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const answers = await Promise.all(
          cluster!.nodes.map(async (n) => {
            if (!n.running()) return status;
            return fetch(`${n.url}/healthz`, { signal: AbortSignal.timeout(3000) })
              .then((r) => r.status)
              .catch(() => 0);
          }),
        );
        const wrong = answers
          .map((got, i) => [i, got] as const)
          .filter(([, got]) => got !== status)
          .map(([i, got]) => `n${i + 1} answered ${got}`);
        if (wrong.length === 0 || Date.now() > deadline) return wrong;
        await sleep(100);
      }
    };

    /**
     * PostgreSQL stopped (a fast shutdown: every session ended), down for fault.downMs, started
     * again. Meanwhile every process's /healthz must say 503, and a call through nginx must be
     * answered by a process with 503 and Retry-After (not nginx's 502 for "no process left"); the
     * writers' retries wait it out. Afterwards every process must serve again (its pool recovered).
     */
    const restartPostgres = async (fault: Fault) => {
      await postgres.stop();
      const down = Date.now();
      try {
        const unhealthy = await untilHealth(503, 3000);
        if (unhealthy.length > 0) discrepancies.push(`PostgreSQL down: /healthz ${unhealthy.join(', ')}`);
        const probe = await fetch(`${site}/portal/staff/queue`, {
          headers: { Authorization: `Bearer ${counsellor}` },
          signal: AbortSignal.timeout(5000),
        });
        await probe.arrayBuffer();
        if (probe.status !== 503 || !probe.headers.get('retry-after'))
          discrepancies.push(
            `PostgreSQL down: a call through nginx answered ${probe.status} (Retry-After ${probe.headers.get('retry-after')}), not 503 with Retry-After`,
          );
        await sleep(Math.max(0, down + fault.downMs - Date.now()));
      } finally {
        await postgres.start();
      }
      const sick = await untilHealth(200, 30_000);
      if (sick.length > 0) discrepancies.push(`PostgreSQL back: /healthz ${sick.join(', ')} after 30 s`);
      log(`PostgreSQL was down ${Date.now() - down} ms; every process serves again`);
    };

    // One process at a time replaced by the next release while everyone writes; the first new one
    // migrates the shared database under the old one. Then every process serves the new client and
    // runs on the new schema.
    const rollingUpgrade = async () => {
      await cluster!.upgrade(nextRelease, (node) =>
        log(`upgrade: ${node.id} runs release ${nextRelease.id}`),
      );
      if (BROWSERS > 0) {
        const sw = fs.readFileSync(path.join(nextRelease.clientDir, 'sw.js'), 'utf8');
        for (const node of cluster!.nodes) {
          const served = await fetch(`${node.url}/sw.js`).then((r) => r.text());
          if (served !== sw) discrepancies.push(`upgrade: ${node.id} does not serve the new release's sw.js`);
        }
      }
      const probe = new pg.Client({ connectionString: databaseUrl });
      await probe.connect();
      try {
        const { rows } = await probe.query(
          `SELECT 1 FROM information_schema.columns WHERE table_name = 'conversations' AND column_name = $1`,
          [PROBE_COLUMN],
        );
        if (rows.length !== 1) discrepancies.push(`upgrade: the new release's migration did not run`);
      } finally {
        await probe.end();
      }
    };

    // Faults, on their schedule, while the writers write.
    const started = Date.now();
    const faultRuns: Array<Promise<void>> = [];
    const runFault = async (fault: Fault) => {
      const c = children[fault.target % children.length]!;
      log(`fault: ${fault.kind}${hitsProcess(fault.kind) ? ` n${fault.target + 1}` : ''}`);
      switch (fault.kind) {
        case 'kill -9 a server process':
          await cluster!.kill(fault.target, 'SIGKILL');
          await sleep(fault.downMs);
          await cluster!.start(fault.target);
          break;
        case 'kill -9 inside a write':
          await killInsideWrite(fault);
          break;
        case 'restart PostgreSQL':
          await restartPostgres(fault);
          break;
        case 'rolling upgrade':
          await rollingUpgrade();
          break;
        case 'restart Redis':
          await stopRedis(redis);
          await sleep(fault.downMs);
          redis = await startRedis(redisPort);
          break;
        case 'reload nginx':
          await cluster!.reloadNginx();
          break;
        case 'cut PostgreSQL connections':
          await adminQuery(
            'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
            [databaseName],
          );
          break;
        case 'child offline and back':
          c.offline();
          await sleep(fault.downMs);
          await c.online();
          break;
        case 'worker killed and recreated':
          await c.kill();
          await sleep(fault.downMs);
          await c.open();
          break;
        case 'child closed with messages queued':
          c.offline();
          await c.write(random.pick(c.conversations));
          await c.write(random.pick(c.conversations));
          issued += 2;
          await c.kill();
          await sleep(fault.downMs);
          await c.online();
          await c.open();
          break;
      }
      log(`fault over: ${fault.kind}`);
    };
    for (const fault of schedule) {
      const wait = started + fault.atMs - Date.now();
      if (wait > 0) await sleep(wait);
      if (issued >= MESSAGES) break;
      const run = runFault(fault).catch((error: unknown) => {
        discrepancies.push(`fault ${fault.kind} failed: ${String(error)}`);
      });
      faultRuns.push(run);
      await run;
    }
    await Promise.all([...writers, leaderWriter]);
    writing = false;
    const kindsRun = new Set(schedule.slice(0, faultRuns.length).map((f) => f.kind));
    if (kindsRun.size < FAULTS.length) {
      discrepancies.push(
        `only ${kindsRun.size} of the ${FAULTS.length} fault kinds ran before the writing ended: raise CHAOS_MESSAGES`,
      );
    }
    await Promise.all(faultRuns);
    log(`writing done: ${issued} messages issued in ${Math.round((Date.now() - started) / 1000)} s`);

    // Everything back: every child open and online, every process up; then the outboxes drain.
    for (let i = 0; i < cluster.nodes.length; i++) await cluster.start(i);
    for (const child of children) {
      await child.online();
      await child.open();
    }
    const drainDeadline = Date.now() + 120_000;
    for (const child of children) {
      while ((await child.unsent()).waiting > 0 && Date.now() < drainDeadline) await sleep(250);
      const { waiting, refused } = await child.unsent();
      if (waiting > 0)
        discrepancies.push(`${child.name}: ${waiting} writes still in its outbox after 2 minutes`);
      for (const r of refused) discrepancies.push(`${child.name}: a write refused by the server: ${r}`);
    }
    log('outboxes drained');
    for (const failed of counsellorFailed) discrepancies.push(`counsellor write refused: ${failed}`);

    // The server's truth, straight from PostgreSQL.
    const conversationIds = children.flatMap((c) => c.conversations);
    const database = new pg.Client({ connectionString: databaseUrl });
    await database.connect();
    const { rows } = await database.query<{ id: number; conversation_id: number; message: string }>(
      'SELECT id, conversation_id, message FROM conversation_messages WHERE conversation_id = ANY($1) ORDER BY id',
      [conversationIds],
    );
    await database.end();
    const expected = [...children.flatMap((c) => c.sent), ...counsellorSent];
    const { lost, duplicated, disordered, discrepancies: found } = verdictOf(expected, rows);
    discrepancies.push(...found);

    // Every child's own copy: the same messages, by server id, as the server holds for it.
    let divergent = 0;
    const convergeDeadline = Date.now() + 60_000;
    for (const child of children) {
      for (const id of child.conversations) {
        const server = new Map(rows.filter((r) => r.conversation_id === id).map((r) => [r.id, r.message]));
        const same = async () => {
          const local = await child.localCopy(id);
          const unsent = local.filter((m) => m.id === null);
          const localIds = new Map(local.filter((m) => m.id !== null).map((m) => [m.id!, m.message]));
          const missing = [...server].filter(([sid, text]) => localIds.get(sid) !== text);
          const extra = [...localIds].filter(([sid]) => !server.has(sid));
          return {
            unsent,
            missing,
            extra,
            ok: unsent.length === 0 && missing.length === 0 && extra.length === 0,
          };
        };
        let state = await same();
        while (!state.ok && Date.now() < convergeDeadline) {
          await child.refresh(id);
          await sleep(500);
          state = await same();
        }
        if (!state.ok) {
          divergent++;
          discrepancies.push(
            `${child.name}, conversation ${id}: its copy differs - ${state.missing.length} missing, ${state.extra.length} not on the server, ${state.unsent.length} unsent`,
          );
        }
      }
    }
    log('local copies compared');

    // What the processes saw, then: no hub connection or subscription left once every child is gone.
    const seen = await Promise.all(cluster.nodes.map((n) => readMetrics(n.url)));
    for (const child of children) await child.kill();
    const quietDeadline = Date.now() + 20_000;
    let dangling: number[] = [];
    for (;;) {
      const now = await Promise.all(cluster.nodes.map((n) => readMetrics(n.url)));
      dangling = now.map((m) => (m.get('hub_connections') ?? 0) + (m.get('hub_subscriptions') ?? 0));
      if (dangling.every((d) => d === 0) || Date.now() > quietDeadline) break;
      await sleep(250);
    }
    dangling.forEach((d, i) => {
      if (d > 0)
        discrepancies.push(`n${i + 1}: ${d} hub connections and subscriptions left after every client left`);
    });

    const sum = (name: string) => seen.reduce((total, m) => total + (m.get(name) ?? 0), 0);
    console.info('\nwhat the processes counted (since their last start):');
    console.info(`  events delivered          ${sum('hub_events_delivered_total')}`);
    console.info(
      `  answered 429 / 5xx        ${sum('http_retry_signals_total{kind="rate_limited"}')} / ${sum('http_retry_signals_total{kind="server_error"}')}`,
    );
    console.info(`  idempotent replays        ${sum('http_retry_signals_total{kind="idempotent_replay"}')}`);
    console.info(
      `  database errors           query ${sum('db_errors_total{kind="query"}')}, connection ${sum('db_errors_total{kind="connection"}')}`,
    );
    console.info(`  Redis backplane reconnects ${sum('hub_backplane_reconnects_total')}`);
    const childReplays = children.reduce((total, c) => total + (c.replayed ?? 0), 0);
    const childRetried = new Map<number, number>();
    for (const c of children)
      for (const [status, n] of c.retried ?? [])
        childRetried.set(status, (childRetried.get(status) ?? 0) + n);
    const statuses = (m: Map<number, number>) =>
      [...m]
        .sort(([a], [b]) => a - b)
        .map(([status, n]) => `${status}: ${n}`)
        .join(', ') || 'none';
    console.info('\nwhat the writers saw:');
    console.info(
      `  Idempotent-Replayed: true ${childReplays + staffSeen.replayed} (worker-core children ${childReplays}, staff ${staffSeen.replayed}; the browsers' are not seen)`,
    );
    console.info(
      `  5xx before a retry        children ${statuses(childRetried)}; staff ${statuses(staffSeen.retried)}`,
    );
    for (const [i, where] of killedWrites.entries())
      console.info(`  killed write ${i + 1} replayed by ${where}`);
    console.info('\nresult:');
    console.info(
      `  messages written   ${expected.length} (children ${expected.length - counsellorSent.length}, counsellor ${counsellorSent.length})`,
    );
    const inBrowsers = children.filter((c) => c instanceof ChaosBrowserChild).flatMap((c) => c.sent).length;
    console.info(`  of them in browsers ${inBrowsers}`);
    console.info(`  lost               ${lost}`);
    console.info(`  duplicated         ${duplicated}`);
    console.info(`  out of order       ${disordered}`);
    console.info(`  divergent copies   ${divergent}`);
    console.info(`  dangling hub       ${dangling.reduce((a, b) => a + b, 0)}`);
    console.info(`  faults             ${faultRuns.length} of ${schedule.length} scheduled`);
  } finally {
    for (const child of children) await child.close().catch(() => undefined);
    await browser?.close();
    await cluster?.stop().catch(() => undefined);
    await stopRedis(redis);
    await postgres.destroy();
  }
  if (discrepancies.length > 0) {
    console.error(`\n${discrepancies.length} discrepancies:`);
    for (const d of discrepancies) console.error(`  ${d}`);
    process.exit(1);
  }
  console.info('\nno discrepancies');
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error('chaos: the run could not finish:', error);
  process.exit(2);
});
