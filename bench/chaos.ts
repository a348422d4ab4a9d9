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
// on a free port), so that restarting them hits nothing else on the machine (chaos-site.ts). The
// faults are in chaos-faults.ts; main() below reads as the run's phases.
// First: Dexie finds IndexedDB when it is loaded, and the worker-core children (chaos-client.ts) run
// on fake-indexeddb, however the imports below happen to be ordered.
import 'fake-indexeddb/auto';
import type { Browser } from '@playwright/test';
import pg from 'pg';
import { launchChromium } from '../harness/chromium.ts';
import { readMetrics } from '../harness/metrics-text.ts';
import { ChaosBrowserChild } from './chaos-browser.ts';
import { ChaosChild, type ChaosClient, type Sent } from './chaos-client.ts';
import {
  describeFault,
  FAULT_KINDS,
  FAULTS,
  scheduleOf,
  seeded,
  type Fault,
  type Random,
} from './chaos-faults.ts';
import {
  log,
  registerChild,
  sleep,
  staffCall,
  staffLogin,
  staffSeen,
  startChaosSite,
  type ChaosSite,
} from './chaos-site.ts';
import { verdictOf, type Verdict } from './chaos-verdict.ts';

const MESSAGES = Number(process.env.CHAOS_MESSAGES ?? 1000);
const CHILDREN = Number(process.env.CHAOS_CHILDREN ?? 10);
const PROCESSES = Number(process.env.CHAOS_PROCESSES ?? 2);
const BROWSERS = Number(process.env.CHAOS_BROWSERS ?? 2);
const SEED = Number(process.env.CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31));
/** A child or a counsellor writes every 2 to 4 s: a person typing, not a load generator. */
const WRITE_EVERY_MS: [number, number] = [2000, 4000];

/** The people of the run besides the children: their tokens, and the group's meeting and chat. */
interface Cast {
  counsellor: string;
  leader: string;
  meetingId: number;
  groupChat: number;
}

/** What the writing phase leaves for the checks. */
interface Writing {
  counsellorSent: Sent[];
  counsellorFailed: string[];
  faultsRun: number;
  killedWrites: string[];
}

/** The fault schedule for this seed, printed so that a run can be replayed. */
function plan(random: Random): Fault[] {
  // Writers: each child and its counsellor, each participant, the leader, each browser and its counsellor.
  const writingMs = Math.round(
    (MESSAGES / (CHILDREN * 2 + 4 + BROWSERS * 2)) * ((WRITE_EVERY_MS[0] + WRITE_EVERY_MS[1]) / 2),
  );
  const schedule = scheduleOf(random, writingMs, { processes: PROCESSES, children: CHILDREN });
  console.info(
    `chaos: seed ${SEED}, ${MESSAGES} messages, ${CHILDREN} children and a group of 3 with its leader, ${PROCESSES} processes, about ${Math.round(writingMs / 1000)} s of writing`,
  );
  console.info('fault schedule (replay with CHAOS_SEED=' + SEED + '):');
  for (const f of schedule) console.info(`  ${describeFault(f, CHILDREN)}`);
  return schedule;
}

/**
 * Children registered and signed in, each with a live chat accepted by the counsellor and a mail;
 * the demo group's meeting started with its three participants in the group chat (the worker core,
 * as the meeting page runs it) and its leader on the staff API; children in Chromium signed in
 * through the start page, writing through the thread page. Each joins `children` as it is ready.
 */
async function seatWriters(site: ChaosSite, browser: Browser | null, children: ChaosClient[]): Promise<Cast> {
  const counsellor = await staffLogin(site.url);
  for (let i = 0; i < CHILDREN; i++) {
    const name = `chaos${i + 1}x${SEED % 100000}`;
    await registerChild(site.url, name);
    const child = await ChaosChild.create(name, site.url);
    children.push(child);
    await child.open();
    await child.signIn();
    const chat = await child.startChat();
    const accepted = await staffCall(site.url, counsellor, `/conversations/${chat}/accept`, {});
    if (accepted.status !== 200) throw new Error(`accept ${chat}: ${accepted.status}`);
    await child.startMail();
  }
  log(`${CHILDREN} children signed in, each in a chat and a mail thread`);

  const leader = await staffLogin(site.url, 'gruppledare', 'gruppledare-losenord');
  const created = await staffCall(site.url, leader, '/meetings', {
    seriesId: 1,
    subject: 'Chaos',
    description: 'Chaos',
    startDate: new Date().toISOString(),
    duration: 120,
  });
  const meetingId = (created.body as { id: number }).id;
  const startedMeeting = await staffCall(site.url, leader, `/meetings/${meetingId}/start`, {});
  const conversation = (startedMeeting.body as { conversation?: { id: number } | null }).conversation;
  if (!conversation) throw new Error(`the group's meeting did not start: ${startedMeeting.status}`);
  const groupChat = conversation.id;
  for (const code of ['DEMOKOD-0001', 'DEMOKOD-0002', 'DEMOKOD-0003']) {
    const participant = await ChaosChild.create(code, site.url);
    children.push(participant);
    await participant.open();
    await participant.signIn(null);
    await participant.joinGroupChat(groupChat);
  }

  for (let i = 0; i < BROWSERS; i++) {
    const name = `chaosweb${i + 1}x${SEED % 100000}`;
    await registerChild(site.url, name);
    const web = await ChaosBrowserChild.create(browser!, name, site.url);
    children.push(web);
    await web.signInAndStartMail(site.url);
  }
  if (BROWSERS > 0) log(`${BROWSERS} children in Chromium, each in a mail thread`);
  log(`the group: meeting ${meetingId}, its chat ${groupChat}, three participants and their leader`);
  return { counsellor, leader, meetingId, groupChat };
}

/**
 * Every child and, for each child, the counsellor write every 2 to 4 s, to either of its
 * conversations, and the leader to the group chat, while the faults run on their schedule.
 */
async function writeThroughFaults(
  site: ChaosSite,
  cast: Cast,
  children: ChaosClient[],
  random: Random,
  schedule: Fault[],
  discrepancies: string[],
): Promise<Writing> {
  const counsellorSent: Sent[] = [];
  const counsellorFailed: string[] = [];
  const killedWrites: string[] = [];
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
      const answer = await staffCall(site.url, cast.leader, `/meetings/${cast.meetingId}/messages`, {
        content: text,
      });
      if (answer.status === 201)
        counsellorSent.push({ conversationId: cast.groupChat, text, sender: 'ledare', seq });
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
        const answer = await staffCall(
          site.url,
          cast.counsellor,
          `/conversations/${conversationId}/messages`,
          {
            content: text,
          },
        );
        if (answer.status === 201 || answer.status === 200)
          counsellorSent.push({ conversationId, text, sender, seq });
        else counsellorFailed.push(`${text}: ${answer.status} ${JSON.stringify(answer.body)}`);
      }
    })(),
  ]);

  const context = {
    site,
    children,
    random,
    counsellor: cast.counsellor,
    browsers: BROWSERS > 0,
    discrepancies,
    killedWrites,
    wrote: (count: number) => {
      issued += count;
    },
  };
  const started = Date.now();
  const faultRuns: Array<Promise<void>> = [];
  for (const fault of schedule) {
    const wait = started + fault.atMs - Date.now();
    if (wait > 0) await sleep(wait);
    if (issued >= MESSAGES) break;
    log(`fault: ${fault.kind}${FAULTS[fault.kind].hits === 'process' ? ` n${fault.target + 1}` : ''}`);
    const run = FAULTS[fault.kind]
      .run(fault, context)
      .then(() => log(`fault over: ${fault.kind}`))
      .catch((error: unknown) => {
        discrepancies.push(`fault ${fault.kind} failed: ${String(error)}`);
      });
    faultRuns.push(run);
    await run;
  }
  await Promise.all([...writers, leaderWriter]);
  writing = false;
  const kindsRun = new Set(schedule.slice(0, faultRuns.length).map((f) => f.kind));
  if (kindsRun.size < FAULT_KINDS.length) {
    discrepancies.push(
      `only ${kindsRun.size} of the ${FAULT_KINDS.length} fault kinds ran before the writing ended: raise CHAOS_MESSAGES`,
    );
  }
  await Promise.all(faultRuns);
  log(`writing done: ${issued} messages issued in ${Math.round((Date.now() - started) / 1000)} s`);
  return { counsellorSent, counsellorFailed, faultsRun: faultRuns.length, killedWrites };
}

/** Everything back: every child open and online, every process up; then the outboxes drain. */
async function settle(site: ChaosSite, children: ChaosClient[], writing: Writing, discrepancies: string[]) {
  for (let i = 0; i < site.cluster.nodes.length; i++) await site.cluster.start(i);
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
  for (const failed of writing.counsellorFailed) discrepancies.push(`counsellor write refused: ${failed}`);
}

type StoredRow = { id: number; conversation_id: number; message: string };

/** The server's truth, straight from PostgreSQL: every message written is there once, in order. */
async function compareWithServer(
  site: ChaosSite,
  expected: Sent[],
  conversationIds: number[],
  discrepancies: string[],
): Promise<{ rows: StoredRow[]; verdict: Verdict }> {
  const database = new pg.Client({ connectionString: site.databaseUrl });
  await database.connect();
  const { rows } = await database.query<StoredRow>(
    'SELECT id, conversation_id, message FROM conversation_messages WHERE conversation_id = ANY($1) ORDER BY id',
    [conversationIds],
  );
  await database.end();
  const verdict = verdictOf(expected, rows);
  discrepancies.push(...verdict.discrepancies);
  return { rows, verdict };
}

/** Every child's own copy: the same messages, by server id, as the server holds for it. Answers how many differ. */
async function compareLocalCopies(
  children: ChaosClient[],
  rows: StoredRow[],
  discrepancies: string[],
): Promise<number> {
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
  return divergent;
}

/**
 * What the processes saw (their metrics, read while every child is still there), then: no hub
 * connection or subscription left on any process once every child is gone.
 */
async function hubLeftovers(site: ChaosSite, children: ChaosClient[], discrepancies: string[]) {
  const { nodes } = site.cluster;
  const seen = await Promise.all(nodes.map((n) => readMetrics(n.url)));
  for (const child of children) await child.kill();
  const quietDeadline = Date.now() + 20_000;
  let dangling: number[] = [];
  for (;;) {
    const now = await Promise.all(nodes.map((n) => readMetrics(n.url)));
    dangling = now.map((m) => (m.get('hub_connections') ?? 0) + (m.get('hub_subscriptions') ?? 0));
    if (dangling.every((d) => d === 0) || Date.now() > quietDeadline) break;
    await sleep(250);
  }
  dangling.forEach((d, i) => {
    if (d > 0)
      discrepancies.push(`n${i + 1}: ${d} hub connections and subscriptions left after every client left`);
  });
  return { seen, dangling: dangling.reduce((a, b) => a + b, 0) };
}

/** The counts: what the processes and the writers saw, and the verdict. */
function report(
  children: ChaosClient[],
  writing: Writing,
  scheduled: number,
  outcome: {
    expected: Sent[];
    verdict: Verdict;
    divergent: number;
    seen: Array<Map<string, number>>;
    dangling: number;
  },
) {
  const { expected, verdict, divergent, seen, dangling } = outcome;
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
    for (const [status, n] of c.retried ?? []) childRetried.set(status, (childRetried.get(status) ?? 0) + n);
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
  for (const [i, where] of writing.killedWrites.entries())
    console.info(`  killed write ${i + 1} replayed by ${where}`);
  console.info('\nresult:');
  const counsellor = writing.counsellorSent.length;
  console.info(
    `  messages written   ${expected.length} (children ${expected.length - counsellor}, counsellor ${counsellor})`,
  );
  const inBrowsers = children.filter((c) => c instanceof ChaosBrowserChild).flatMap((c) => c.sent).length;
  console.info(`  of them in browsers ${inBrowsers}`);
  console.info(`  lost               ${verdict.lost}`);
  console.info(`  duplicated         ${verdict.duplicated}`);
  console.info(`  out of order       ${verdict.disordered}`);
  console.info(`  divergent copies   ${divergent}`);
  console.info(`  dangling hub       ${dangling}`);
  console.info(`  faults             ${writing.faultsRun} of ${scheduled} scheduled`);
}

async function main() {
  const random = seeded(SEED);
  const schedule = plan(random);
  const site = await startChaosSite({ seed: SEED, processes: PROCESSES, browsers: BROWSERS });
  let browser: Browser | null = null;
  const children: ChaosClient[] = [];
  const discrepancies: string[] = [];
  try {
    if (BROWSERS > 0) browser = await launchChromium();
    const cast = await seatWriters(site, browser, children);
    const writing = await writeThroughFaults(site, cast, children, random, schedule, discrepancies);
    await settle(site, children, writing, discrepancies);
    const expected = [...children.flatMap((c) => c.sent), ...writing.counsellorSent];
    const conversationIds = children.flatMap((c) => c.conversations);
    const { rows, verdict } = await compareWithServer(site, expected, conversationIds, discrepancies);
    const divergent = await compareLocalCopies(children, rows, discrepancies);
    const { seen, dangling } = await hubLeftovers(site, children, discrepancies);
    report(children, writing, schedule.length, { expected, verdict, divergent, seen, dangling });
  } finally {
    for (const child of children) await child.close().catch(() => undefined);
    await browser?.close();
    await site.stop();
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
