/**
 * Catch-up after network outages (npm run bench:catchup, after `npm run build`): a real child-app
 * server behind the project's fault proxy, one child in Debian Chromium in a live chat with the demo
 * counsellor. BENCH_OUTAGES (default 20) outages of 2 to BENCH_MAX_OUTAGE_S (default 60) seconds,
 * evenly spread and taken in a shuffled (seeded) order: the proxy drops every socket and the page is
 * told it is offline; halfway through the counsellor writes 'Mätning N'. The figure is the time from
 * the network's return to that message being rendered in the child's chat window. BENCH_MODE=fallback
 * runs the app without SharedWorker (one dedicated worker per tab).
 *
 * BENCH_FAULT=silent (`npm run bench:flaky`): the network lies instead. Each outage is a silent
 * loss of 5 to BENCH_MAX_OUTAGE_S seconds: every connection goes dead without a close and the browser
 * still says online (the proxy's `silence()`), so only the app's own liveness check can tell.
 * `npm run bench:flaps` is the flapping line: silent losses of 2 to 5 s (BENCH_MIN_OUTAGE_S and
 * BENCH_MAX_OUTAGE_S), each followed by the settled 3 s, about three minutes over the 20 outages.
 *
 * BENCH_MESSAGES=10000: the chat first holds that many messages (seeded through the server's own
 * `messageRow`, two seconds apart, the newest ten minutes old; the app's 45 s refetch brings them
 * into its cache), and one outage of BENCH_MAX_OUTAGE_S (default 60) is measured unless
 * BENCH_OUTAGES says otherwise. It also prints the rows and bytes of the message list that catch-up
 * asks for, whole and with the `since` cursor (docs/decisions.md "Catch-up by cursor").
 *
 * Each outage is also cut at the server's answer to the catch-up: the first message list of the chat
 * (the worker's `GET .../messages?...&since=...`, or the whole list when it has no cursor) that the
 * proxy forwarded after the network's return. The SharedWorker's requests are invisible to
 * Playwright, so the proxy is watched from inside this process (`watchListAnswers`). After the
 * outages, the floors (bench/floor.ts) of the rows the screen needs then (the newest page), of the
 * rows the last catch-up fetched and of the whole chat are measured in the child's page. The load
 * average is printed at the start and the end.
 */
import dc from 'node:diagnostics_channel';
import type http from 'node:http';
import type net from 'node:net';
import type { ConversationMessageWire } from '../contract/conversations.ts';
import { api, login } from '../harness/test-server.ts';
import { startFaultProxy } from '../harness/fault-proxy.ts';
import { openDatabase } from '../server/db/database.ts';
import { messageRow } from '../server/conversations/writes.ts';
import {
  demoChildInLiveChat,
  latencySummary,
  loadAverage,
  printReport,
  readRenders,
  runBench,
  startBenchServer,
  watchRenders,
  untilCached,
} from './support.ts';
import { launchChromium } from '../harness/chromium.ts';
import { chatRowsFromServer, measureFloors, newestFrom, oldestFrom, overFloors } from './floor.ts';

/** Messages the chat holds before the outages (0: only what the bench writes). */
const HISTORY = Number(process.env.BENCH_MESSAGES ?? 0);
const OUTAGES = Number(process.env.BENCH_OUTAGES ?? (HISTORY > 0 ? 1 : 20));
const FAULT = process.env.BENCH_FAULT === 'silent' ? 'silent' : 'offline';
const MIN_OUTAGE_S = Number(process.env.BENCH_MIN_OUTAGE_S ?? (FAULT === 'silent' ? 5 : 2));
const MAX_OUTAGE_S = Number(process.env.BENCH_MAX_OUTAGE_S ?? 60);
const MODE = process.env.BENCH_MODE === 'fallback' ? 'fallback' : 'SharedWorker';
/** Connected time between two outages, so each starts from a settled connection. */
const SETTLE_MS = 3000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Evenly spread outage lengths in a seeded shuffle, so a run can be repeated exactly. */
function outageLengthsMs(): number[] {
  const lengths = Array.from({ length: OUTAGES }, (_, i) =>
    Math.round(
      1000 *
        (OUTAGES === 1
          ? HISTORY > 0
            ? MAX_OUTAGE_S
            : MIN_OUTAGE_S
          : MIN_OUTAGE_S + ((MAX_OUTAGE_S - MIN_OUTAGE_S) * i) / (OUTAGES - 1)),
    ),
  );
  let seed = 12345;
  for (let i = lengths.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const j = seed % (i + 1);
    [lengths[i], lengths[j]] = [lengths[j]!, lengths[i]!];
  }
  return lengths;
}

/**
 * `count` counsellor messages before everything else in the chat, as a long history lies in the past:
 * two seconds apart, the newest ten minutes old (outside the cursor's overlap, as old history is).
 */
async function seedHistory(databaseUrl: string, conversationId: number, count: number) {
  const { db, close } = openDatabase(databaseUrl);
  try {
    const template = await db
      .selectFrom('conversation_messages')
      .select(['agent_account_id', 'author_name'])
      .where('conversation_id', '=', conversationId)
      .where('author_kind', '=', 'agent')
      .executeTakeFirstOrThrow();
    const newest = Date.now() - 10 * 60_000;
    await db.transaction().execute(async (trx) => {
      for (let from = 0; from < count; from += 500) {
        const rows = Array.from({ length: Math.min(500, count - from) }, (_, k) =>
          messageRow(
            {
              conversationId,
              authorKind: 'agent',
              agentAccountId: template.agent_account_id,
              authorName: template.author_name,
              message: `Historik ${from + k}: ${'ord '.repeat(12).trim()}`,
              loggedDate: new Date(newest - (count - 1 - from - k) * 2000).toISOString(),
            },
            false,
          ),
        );
        await trx.insertInto('conversation_messages').values(rows).execute();
      }
    });
  } finally {
    await close();
  }
}

/** Rows and JSON bytes of the message list catch-up asks for, whole and with the cursor. */
async function listSizes(serverUrl: string, id: number, since: number) {
  const child = (await login(serverUrl, 'demo', 'demo-losenord')).access_token;
  const size = async (cursor: string) => {
    const path = `/portal/features/conversations/conversationsapplication-id/messages`;
    const res = await fetch(`${serverUrl}${path}?take=9999&conversation=${id}&selection=mine${cursor}`, {
      headers: { Authorization: `Bearer ${child}`, 'X-App-Variant': 'Barn' },
    });
    const text = await res.text();
    const rows = (JSON.parse(text) as { value: ConversationMessageWire[] }).value.length;
    return { rows, bytes: Buffer.byteLength(text) };
  };
  return { whole: await size(''), withCursor: await size(`&since=${since}`) };
}

/** A message list of the chat as the proxy forwarded it to the browser (Date.now() times). */
interface ListAnswer {
  /** The `since` cursor it was asked with; null: the whole list. */
  since: number | null;
  status: number;
  /** When the request reached the proxy. */
  requestAt: number;
  /** When the proxy had written the answer's last byte to the browser's socket. */
  answeredAt: number;
}

/**
 * The chat's message lists the proxy on `proxyPort` answers, watched through Node's own HTTP
 * diagnostics channels: the proxy runs in this process, so its server's 'request start' and
 * 'response finish' are seen here without a hook in it (harness/fault-proxy.ts has rules and
 * request waits, nothing that reports an answer) and without a forwarder of our own in the path,
 * which would add a hop to what is timed. 'Response finish' is the moment the proxy handed the last
 * byte of the server's answer to the browser's socket: the server has answered and the answer is on
 * its way to the worker.
 */
function watchListAnswers(proxyPort: number, conversationId: number) {
  const answers: ListAnswer[] = [];
  const arrived = new WeakMap<http.IncomingMessage, number>();
  const listOf = (request: http.IncomingMessage, server: http.Server) => {
    if ((server.address() as net.AddressInfo | null)?.port !== proxyPort) return undefined;
    const url = new URL(request.url ?? '/', 'http://proxy');
    if (!url.pathname.endsWith('/conversationsapplication-id/messages')) return undefined;
    if (url.searchParams.get('conversation') !== String(conversationId)) return undefined;
    const since = url.searchParams.get('since');
    return { since: since === null ? null : Number(since) };
  };
  type Message = { request: http.IncomingMessage; response: http.ServerResponse; server: http.Server };
  const onStart = (message: unknown) => {
    const { request, server } = message as Message;
    if (listOf(request, server)) arrived.set(request, Date.now());
  };
  const onFinish = (message: unknown) => {
    const answeredAt = Date.now();
    const { request, response, server } = message as Message;
    const requestAt = arrived.get(request);
    const list = listOf(request, server);
    if (requestAt === undefined || !list) return;
    answers.push({ ...list, status: response.statusCode, requestAt, answeredAt });
  };
  dc.subscribe('http.server.request.start', onStart);
  dc.subscribe('http.server.response.finish', onFinish);
  return {
    answers,
    stop() {
      dc.unsubscribe('http.server.request.start', onStart);
      dc.unsubscribe('http.server.response.finish', onFinish);
    },
  };
}

interface Outage {
  outageMs: number;
  catchUpMs: number;
  /** The catch-up's list: which cursor, and the times around it (null: none was answered before). */
  catchUp: {
    since: number | null;
    networkBackToRequestMs: number;
    requestToAnswerMs: number;
    answerToMessageOnScreenMs: number;
    /** Lists of the chat answered between the network's return and the message on screen. */
    listsAnswered: number;
  } | null;
}

async function main() {
  const loadAtStart = loadAverage();
  const server = await startBenchServer({
    APP_VARIANT: 'barn',
    CLIENT_DIR: process.env.CLIENT_DIR ?? 'dist',
  });
  const proxy = await startFaultProxy({ target: server.url });
  const browser = await launchChromium();
  try {
    const counsellor = (await login(server.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token;
    const write = (id: number, content: string) =>
      api(server.url, `/portal/staff/conversations/${id}/messages`, { token: counsellor, body: { content } });
    const context = await browser.newContext({ baseURL: proxy.origin });
    if (MODE === 'fallback')
      await context.addInitScript(() => Reflect.deleteProperty(window, 'SharedWorker'));
    const page = await context.newPage();
    const { dialog, id } = await demoChildInLiveChat(page, '/', server.url, counsellor);
    const onServer = async () =>
      (
        (await api(server.url, `/portal/staff/conversations/${id}/messages`, { token: counsellor })).body as {
          value: ConversationMessageWire[];
        }
      ).value;
    if (HISTORY > 0) {
      await seedHistory(server.databaseUrl, id, HISTORY);
      await untilCached(page, (await onServer()).length);
      console.error(`${HISTORY} messages seeded and in the app's cache`);
    }
    await watchRenders(page);
    let lastBeforeOutage = 0;
    const lists = watchListAnswers(proxy.port, id);

    const outages: Outage[] = [];
    for (const [i, outageMs] of outageLengthsMs().entries()) {
      lastBeforeOutage = Math.max(...(await onServer()).map((m) => m.id));
      if (FAULT === 'silent') proxy.silence();
      else {
        proxy.offline();
        await context.setOffline(true);
      }
      await sleep(outageMs / 2);
      await write(id, `Mätning ${i}`);
      await sleep(outageMs / 2);
      const back = Date.now();
      if (FAULT === 'silent') proxy.speak();
      else {
        proxy.online();
        await context.setOffline(false);
      }
      await dialog.getByText(`Mätning ${i}`, { exact: true }).waitFor({ timeout: 120_000 });
      const renderedAt = (await readRenders(page))[String(i)]!;
      const answered = lists.answers.filter(
        (a) => a.status === 200 && a.requestAt >= back && a.answeredAt <= renderedAt,
      );
      const first = answered[0];
      outages.push({
        outageMs,
        catchUpMs: renderedAt - back,
        catchUp: first
          ? {
              since: first.since,
              networkBackToRequestMs: first.requestAt - back,
              requestToAnswerMs: first.answeredAt - first.requestAt,
              answerToMessageOnScreenMs: renderedAt - first.answeredAt,
              listsAnswered: answered.length,
            }
          : null,
      });
      console.error(
        `outage ${i + 1}/${OUTAGES}: ${outageMs} ms, on screen ${renderedAt - back} ms after` +
          (first
            ? `, ${renderedAt - first.answeredAt} ms after the catch-up's answer`
            : ', no list answered'),
      );
      await sleep(SETTLE_MS);
    }

    lists.stop();

    // The floors, in the child's page, of the rows on screen after the catch-up (the newest page),
    // of those the last catch-up fetched (its own cursor asked again: the same rows, nothing was
    // written since) and of the whole chat.
    const child = (await login(server.url, 'demo', 'demo-losenord')).access_token;
    const rows = await chatRowsFromServer(server.url, child, id);
    const lastSince = outages.at(-1)?.catchUp?.since;
    const fetched =
      lastSince === undefined || lastSince === null
        ? rows
        : await chatRowsFromServer(server.url, child, id, `&since=${lastSince}`);
    const floor = await measureFloors(page, rows, {
      newestPage: newestFrom(rows),
      catchUpFetched: oldestFrom(fetched),
      wholeChat: '',
    });
    const answerToScreen = outages.flatMap((o) => (o.catchUp ? [o.catchUp.answerToMessageOnScreenMs] : []));
    const answerSummary = answerToScreen.length > 0 ? latencySummary(answerToScreen) : null;

    printReport({
      bench: 'catchup',
      mode: MODE,
      fault: FAULT,
      loadAverage: { atStart: loadAtStart, atEnd: loadAverage() },
      messagesInChat: (await onServer()).length,
      outages: OUTAGES,
      outageSeconds: [MIN_OUTAGE_S, MAX_OUTAGE_S],
      networkBackToMessageOnScreen: latencySummary(outages.map((o) => o.catchUpMs)),
      answerToMessageOnScreen: answerSummary,
      outagesWithoutACatchUpAnswer: outages.filter((o) => !o.catchUp).length,
      floor,
      answerToMessageOnScreenP50OverFloor: answerSummary ? overFloors(answerSummary.p50ms, floor) : null,
      each: outages,
      // With the cursor the worker sent when it was seen, else the newest id before the outage.
      ...(HISTORY > 0
        ? { lastCatchUpList: await listSizes(server.url, id, lastSince ?? lastBeforeOutage) }
        : {}),
    });
  } finally {
    await browser.close();
    await proxy.close();
    await server.stop();
  }
}

runBench(main);
