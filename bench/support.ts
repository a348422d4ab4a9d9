/**
 * What every benchmark shares: a real server process on a fresh database, Debian Chromium, the
 * render watch of the browser benchmarks, percentiles and the JSON report.
 */
import os from 'node:os';
import type { Locator, Page } from '@playwright/test';
import { api, createTestDatabase } from '../harness/test-server.ts';
import { BENCH_LIMITS, startServerProcess } from '../harness/server-process.ts';

/** The value at the p-th percentile of an ascending list. */
export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** A server process on a fresh database with the benchmark limits; `stop` also drops the database. */
export async function startBenchServer(env: Record<string, string>) {
  const database = await createTestDatabase();
  const server = await startServerProcess({ DATABASE_URL: database.url, ...BENCH_LIMITS, ...env });
  return {
    url: server.url,
    /** The server's database, for seeding what no API writes quickly (bench/cold-start.ts). */
    databaseUrl: database.url,
    async stop() {
      await server.stop();
      await database.drop();
    },
  };
}

/**
 * Records Date.now() in the page when each 'Mätning N' first appears in the open chat window (a
 * native <dialog>; the watched browsers never type, so its text is the messages).
 */
export async function watchRenders(page: Page) {
  await page.evaluate(() => {
    const seen: Record<string, number> = {};
    (window as unknown as { __renders: Record<string, number> }).__renders = seen;
    new MutationObserver(() => {
      const chat = document.querySelector('dialog[open]');
      for (const m of (chat?.textContent ?? '').matchAll(/Mätning (\d+)/g)) seen[m[1]!] ??= Date.now();
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
}

/** The render times `watchRenders` recorded, by message number. */
export const readRenders = (page: Page) =>
  page.evaluate(() => (window as unknown as { __renders: Record<string, number> }).__renders);

/** p50, p99 and max of `latencies` (milliseconds), rounded to `digits` decimals when given. */
export function latencySummary(latencies: number[], digits?: number) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const round = (n: number) => (digits === undefined ? n : Number(n.toFixed(digits)));
  return {
    p50ms: round(percentile(sorted, 50)),
    p99ms: round(percentile(sorted, 99)),
    maxMs: round(sorted.at(-1) ?? Number.NaN),
  };
}

export const printReport = (report: Record<string, unknown>) => console.info(JSON.stringify(report, null, 2));

/** Runs a benchmark's main and exits non-zero on failure. */
export function runBench(main: () => Promise<void>) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}

/**
 * The demo child signs in at `startUrl` and starts a chat; the demo counsellor (staff token
 * `counsellor`, on the server at `serverUrl`) accepts it and says hello; resolves once the child's
 * window is live, with the window and the conversation's id.
 */
export async function demoChildInLiveChat(
  page: Page,
  startUrl: string,
  serverUrl: string,
  counsellor: string,
): Promise<{ dialog: Locator; id: number }> {
  await page.goto(startUrl);
  await page.getByRole('banner').getByRole('button', { name: 'Logga in' }).click();
  const form = page.getByRole('form', { name: 'Logga in' });
  await form.getByLabel('Användarnamn').fill('demo');
  await form.getByLabel('Lösenord').fill('demo-losenord');
  await form.getByRole('button', { name: 'Logga in' }).click();
  await page.getByRole('button', { name: 'Starta en chatt' }).click();
  const dialog = page.getByRole('dialog', { name: 'Chatt' });
  await dialog.getByText('Du väntar på din tur').waitFor();

  const queue = (await api(serverUrl, '/portal/staff/queue', { token: counsellor })).body as {
    value: Array<{ id: number; systemType: string }>;
  };
  const id = queue.value.find((q) => q.systemType === 'chat')!.id;
  await api(serverUrl, `/portal/staff/conversations/${id}/accept`, { token: counsellor, body: {} });
  await api(serverUrl, `/portal/staff/conversations/${id}/messages`, {
    token: counsellor,
    body: { content: 'Hej!' },
  });
  await dialog.getByText('Chatt live').waitFor({ timeout: 20_000 });
  return { dialog, id };
}

/** The machine's load average (1, 5, 15 minutes), printed beside figures a busy machine would move. */
export const loadAverage = () => os.loadavg().map((n) => Math.round(n * 100) / 100);

/** Rows of the chat messages table in the page's IndexedDB (what the worker has stored, sealed or not). */
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

/**
 * Waits until the page's cache holds at least `count` chat messages (the worker's fetch wrote
 * them), polling for up to 100 s: two of the worker's 45 s refetches.
 */
export async function untilCached(page: Page, count: number): Promise<void> {
  for (let i = 0; i < 1000 && (await cachedMessages(page)) < count; i++) await page.waitForTimeout(100);
  const cached = await cachedMessages(page);
  if (cached < count) {
    console.error(page.url(), await page.evaluate(() => document.body.innerText.slice(0, 600)));
    throw new Error(`only ${cached} of ${count} messages reached the cache`);
  }
}
