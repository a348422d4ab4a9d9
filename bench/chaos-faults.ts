// The chaos run's faults: each kind with what it hits and what it does, in one record keyed by
// kind (a kind without its fault does not compile), and the seeded schedule that runs every kind.
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { readMetrics } from '../harness/metrics-text.ts';
import { PROBE_COLUMN } from '../harness/next-release.ts';
import { startRedis, stopRedis } from '../harness/redis-process.ts';
import type { ChaosClient } from './chaos-client.ts';
import { log, sleep, type ChaosSite } from './chaos-site.ts';

/** A PostgreSQL restart keeps it down this long (ms), at random in the range. */
const POSTGRES_DOWN_MS: [number, number] = [5000, 15000];
/** A process restarted with FAULT_KILL_AFTER_CREATE kills itself after this many creates, at random. */
const CREATES_BEFORE_KILL: [number, number] = [1, 5];

/** mulberry32: a small seeded generator, so a seed replays the same schedule and choices. */
export function seeded(seed: number) {
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
export type Random = ReturnType<typeof seeded>;

/** The kinds, in the order a schedule's shuffle starts from (a seed replays the same run). */
export const FAULT_KINDS = [
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
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface Fault {
  atMs: number;
  kind: FaultKind;
  /** The process or child it hits, where it hits one. */
  target: number;
  /** How long the thing stays down. */
  downMs: number;
  /** 'kill -9 inside a write': the process dies right after this many creates committed. */
  creates: number;
}

/** What a fault acts on and reports to. */
export interface FaultContext {
  site: ChaosSite;
  children: ChaosClient[];
  random: Random;
  /** The counsellor's access token (a probe while PostgreSQL is down). */
  counsellor: string;
  /** Whether children run in Chromium (then an upgrade must serve the new client). */
  browsers: boolean;
  discrepancies: string[];
  /** Per 'kill -9 inside a write': the processes whose replays answered the retry of the killed write. */
  killedWrites: string[];
  /** Counts messages a fault itself wrote. */
  wrote(count: number): void;
}

interface FaultAction {
  /** A server process (target: its index), a child (target: its index), or the site as a whole. */
  hits: 'process' | 'child' | 'site';
  run(fault: Fault, ctx: FaultContext): Promise<void>;
}

export const FAULTS: Record<FaultKind, FaultAction> = {
  'kill -9 a server process': {
    hits: 'process',
    async run(fault, { site }) {
      await site.cluster.kill(fault.target, 'SIGKILL');
      await sleep(fault.downMs);
      await site.cluster.start(fault.target);
    },
  },
  'kill -9 inside a write': { hits: 'process', run: killInsideWrite },
  'restart PostgreSQL': { hits: 'site', run: restartPostgres },
  'rolling upgrade': { hits: 'site', run: (_, ctx) => rollingUpgrade(ctx) },
  'restart Redis': {
    hits: 'site',
    async run(fault, { site }) {
      await stopRedis(site.redis);
      await sleep(fault.downMs);
      site.redis = await startRedis(site.redisPort);
    },
  },
  'reload nginx': {
    hits: 'site',
    run: (_, { site }) => site.cluster.reloadNginx(),
  },
  'cut PostgreSQL connections': {
    hits: 'site',
    async run(_, { site }) {
      await site.adminQuery(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [site.databaseName],
      );
    },
  },
  'child offline and back': {
    hits: 'child',
    async run(fault, { children }) {
      const c = children[fault.target % children.length]!;
      c.offline();
      await sleep(fault.downMs);
      await c.online();
    },
  },
  'worker killed and recreated': {
    hits: 'child',
    async run(fault, { children }) {
      const c = children[fault.target % children.length]!;
      await c.kill();
      await sleep(fault.downMs);
      await c.open();
    },
  },
  'child closed with messages queued': {
    hits: 'child',
    async run(fault, { children, random, wrote }) {
      const c = children[fault.target % children.length]!;
      c.offline();
      await c.write(random.pick(c.conversations));
      await c.write(random.pick(c.conversations));
      wrote(2);
      await c.kill();
      await sleep(fault.downMs);
      await c.online();
      await c.open();
    },
  },
};

/**
 * The schedule: every fault kind at least once, spread evenly over the expected writing time. A
 * fault that hits a process picks one of `processes`; any other draws one of `children`.
 */
export function scheduleOf(
  random: Random,
  writingMs: number,
  { processes, children }: { processes: number; children: number },
): Fault[] {
  const count = Math.max(FAULT_KINDS.length, Math.floor(writingMs / 9000));
  const kinds: FaultKind[] = [];
  while (kinds.length < count) {
    const round = [...FAULT_KINDS];
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
    target:
      FAULTS[kind].hits === 'process' ? random.between(0, processes - 1) : random.between(0, children - 1),
    downMs:
      kind === 'restart PostgreSQL'
        ? random.between(...POSTGRES_DOWN_MS)
        : random.between(1000, Math.min(5000, Math.floor(gap * 0.6))),
    creates: random.between(...CREATES_BEFORE_KILL),
  }));
}

/** The schedule's line for a fault: when, what, whom it hits. `children` are the signed-in children. */
export function describeFault(f: Fault, children: number): string {
  const hits = FAULTS[f.kind].hits;
  const target =
    hits === 'process'
      ? ` n${f.target + 1}${f.kind === 'kill -9 inside a write' ? ` after ${f.creates} creates` : ''}`
      : hits === 'child'
        ? f.target < children
          ? ` child ${f.target + 1}`
          : f.target < children + 3
            ? ` participant ${f.target - children + 1}`
            : ` browser ${f.target - children - 2}`
        : '';
  return `+${(f.atMs / 1000).toFixed(1).padStart(5)} s  ${f.kind}${target}, down ${f.downMs} ms`;
}

/** Each process's count of idempotent replays, by index. */
async function replaysOf(site: ChaosSite, nodes: number[]): Promise<Map<number, number>> {
  return new Map(
    await Promise.all(
      nodes.map(
        async (i) =>
          [
            i,
            (await readMetrics(site.cluster.nodes[i]!.url)).get(
              'http_retry_signals_total{kind="idempotent_replay"}',
            ) ?? 0,
          ] as const,
      ),
    ),
  );
}

/**
 * A process restarted with FAULT_KILL_AFTER_CREATE dies with SIGKILL right after a create of its
 * committed, before its answer left. The write's retry (nginx's, to another process, or the
 * writer's own, with the same Idempotency-Key) must be answered from the key: a replay, seen in
 * /metrics of another process or of the restarted one. Then the process runs normally again.
 */
async function killInsideWrite(fault: Fault, { site, discrepancies, killedWrites }: FaultContext) {
  const { cluster } = site;
  const target = fault.target;
  const all = cluster.nodes.map((_, i) => i);
  const before = await replaysOf(
    site,
    all.filter((i) => i !== target),
  );
  await cluster.kill(target, 'SIGTERM');
  await cluster.start(target, { FAULT_KILL_AFTER_CREATE: String(fault.creates) });
  log(`n${target + 1} restarted with FAULT_KILL_AFTER_CREATE=${fault.creates}`);
  const died = await Promise.race([cluster.untilExit(target), sleep(60_000).then(() => 'alive' as const)]);
  if (died === 'alive') {
    discrepancies.push(`kill -9 inside a write: n${target + 1} had not died after 60 s`);
    await cluster.kill(target, 'SIGKILL');
  } else if (died !== 'SIGKILL') {
    discrepancies.push(`kill -9 inside a write: n${target + 1} ended with ${died}, not SIGKILL`);
  }
  log(`n${target + 1} died (${died}) after ${fault.creates} creates; restarting it without the fault point`);
  await cluster.start(target);
  // The killed write's retry is answered from its key, by a process that counts the replay.
  const deadline = Date.now() + 30_000;
  for (;;) {
    const now = await replaysOf(site, all);
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
}

/**
 * PostgreSQL stopped (a fast shutdown: every session ended), down for fault.downMs, started
 * again. Meanwhile every process's /healthz must say 503, and a call through nginx must be
 * answered by a process with 503 and Retry-After (not nginx's 502 for "no process left"); the
 * writers' retries wait it out. Afterwards every process must serve again (its pool recovered).
 */
async function restartPostgres(fault: Fault, { site, counsellor, discrepancies }: FaultContext) {
  await site.postgres.stop();
  const down = Date.now();
  try {
    const unhealthy = await site.untilHealth(503, 3000);
    if (unhealthy.length > 0) discrepancies.push(`PostgreSQL down: /healthz ${unhealthy.join(', ')}`);
    const probe = await fetch(`${site.url}/portal/staff/queue`, {
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
    await site.postgres.start();
  }
  const sick = await site.untilHealth(200, 30_000);
  if (sick.length > 0) discrepancies.push(`PostgreSQL back: /healthz ${sick.join(', ')} after 30 s`);
  log(`PostgreSQL was down ${Date.now() - down} ms; every process serves again`);
}

/**
 * One process at a time replaced by the next release while everyone writes; the first new one
 * migrates the shared database under the old one. Then every process serves the new client and
 * runs on the new schema.
 */
async function rollingUpgrade({ site, browsers, discrepancies }: FaultContext) {
  const { cluster, nextRelease } = site;
  await cluster.upgrade(nextRelease, (node) => log(`upgrade: ${node.id} runs release ${nextRelease.id}`));
  if (browsers) {
    const sw = fs.readFileSync(path.join(nextRelease.clientDir, 'sw.js'), 'utf8');
    for (const node of cluster.nodes) {
      const served = await fetch(`${node.url}/sw.js`).then((r) => r.text());
      if (served !== sw) discrepancies.push(`upgrade: ${node.id} does not serve the new release's sw.js`);
    }
  }
  const probe = new pg.Client({ connectionString: site.databaseUrl });
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
}
