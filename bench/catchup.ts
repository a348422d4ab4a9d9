/**
 * Catch-up after network outages (npm run bench:catchup, after `npm run build`): a real child-app
 * server behind the project's fault proxy, one child in Debian Chromium in a live chat with the demo
 * counsellor. BENCH_OUTAGES (default 20) outages of 2 to BENCH_MAX_OUTAGE_S (default 60) seconds,
 * evenly spread and taken in a shuffled (seeded) order: the proxy drops every socket and the page is
 * told it is offline; halfway through the counsellor writes 'Mätning N'. The figure is the time from
 * the network's return to that message being rendered in the child's chat window. BENCH_MODE=fallback
 * runs the app without SharedWorker (one dedicated worker per tab).
 *
 * BENCH_MESSAGES=10000: the chat first holds that many messages (seeded through the server's own
 * `messageRow`, two seconds apart, the newest ten minutes old; the app's 45 s refetch brings them
 * into its cache), and one outage of BENCH_MAX_OUTAGE_S (default 60) is measured unless
 * BENCH_OUTAGES says otherwise. It also prints the rows and bytes of the message list that catch-up
 * asks for, whole and with the `since` cursor (docs/decisions.md "Catch-up by cursor").
 */
import type { Page } from '@playwright/test';
import type { ConversationMessageWire } from '../contract/conversations.ts';
import { api, login } from '../tests/server/test-server.ts';
import { startFaultProxy } from '../e2e/support/fault-proxy.ts';
import { openDatabase } from '../server/db/database.ts';
import { messageRow } from '../server/conversations/writes.ts';
import {
  demoChildInLiveChat,
  latencySummary,
  launchChromium,
  printReport,
  readRenders,
  runBench,
  startBenchServer,
  watchRenders,
} from './support.ts';

/** Messages the chat holds before the outages (0: only what the bench writes). */
const HISTORY = Number(process.env.BENCH_MESSAGES ?? 0);
const OUTAGES = Number(process.env.BENCH_OUTAGES ?? (HISTORY > 0 ? 1 : 20));
const MIN_OUTAGE_S = 2;
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

/** Rows of the chat messages table in the page's IndexedDB (what the worker has stored). */
const cachedMessages = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('portal-data');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const count = open.result.transaction('chatMessages').objectStore('chatMessages').count();
          count.onsuccess = () => {
            resolve(count.result);
            open.result.close();
          };
          count.onerror = () => reject(count.error);
        };
      }),
  );

/** Waits (polling the page's cache, up to two 45 s refetches) until the worker holds `count` messages. */
async function untilCached(page: Page, count: number) {
  for (let i = 0; i < 1000 && (await cachedMessages(page)) < count; i++) await sleep(100);
  const cached = await cachedMessages(page);
  if (cached < count) throw new Error(`only ${cached} of ${count} messages reached the cache`);
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

async function main() {
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

    const outages: { outageMs: number; catchUpMs: number }[] = [];
    for (const [i, outageMs] of outageLengthsMs().entries()) {
      lastBeforeOutage = Math.max(...(await onServer()).map((m) => m.id));
      proxy.offline();
      await context.setOffline(true);
      await sleep(outageMs / 2);
      await write(id, `Mätning ${i}`);
      await sleep(outageMs / 2);
      const back = Date.now();
      proxy.online();
      await context.setOffline(false);
      await dialog.getByText(`Mätning ${i}`, { exact: true }).waitFor({ timeout: 120_000 });
      const renderedAt = (await readRenders(page))[String(i)]!;
      outages.push({ outageMs, catchUpMs: renderedAt - back });
      console.error(`outage ${i + 1}/${OUTAGES}: ${outageMs} ms, on screen ${renderedAt - back} ms after`);
      await sleep(SETTLE_MS);
    }

    printReport({
      bench: 'catchup',
      mode: MODE,
      messagesInChat: (await onServer()).length,
      outages: OUTAGES,
      outageSeconds: [MIN_OUTAGE_S, MAX_OUTAGE_S],
      networkBackToMessageOnScreen: latencySummary(outages.map((o) => o.catchUpMs)),
      each: outages,
      ...(HISTORY > 0 ? { lastCatchUpList: await listSizes(server.url, id, lastBeforeOutage) } : {}),
    });
  } finally {
    await browser.close();
    await proxy.close();
    await server.stop();
  }
}

runBench(main);
