/**
 * Catch-up after network outages (npm run bench:catchup, after `npm run build`): a real child-app
 * server behind the project's fault proxy, one child in Debian Chromium in a live chat with the demo
 * counsellor. BENCH_OUTAGES (default 20) outages of 2 to BENCH_MAX_OUTAGE_S (default 60) seconds,
 * evenly spread and taken in a shuffled (seeded) order: the proxy drops every socket and the page is
 * told it is offline; halfway through the counsellor writes 'Mätning N'. The figure is the time from
 * the network's return to that message being rendered in the child's chat window. BENCH_MODE=fallback
 * runs the app without SharedWorker (one dedicated worker per tab).
 */
import { api, login } from '../tests/server/test-server.ts';
import { startFaultProxy } from '../e2e/support/fault-proxy.ts';
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

const OUTAGES = Number(process.env.BENCH_OUTAGES ?? 20);
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
        (OUTAGES === 1 ? MIN_OUTAGE_S : MIN_OUTAGE_S + ((MAX_OUTAGE_S - MIN_OUTAGE_S) * i) / (OUTAGES - 1)),
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
    await watchRenders(page);

    const outages: { outageMs: number; catchUpMs: number }[] = [];
    for (const [i, outageMs] of outageLengthsMs().entries()) {
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
      outages: OUTAGES,
      outageSeconds: [MIN_OUTAGE_S, MAX_OUTAGE_S],
      networkBackToMessageOnScreen: latencySummary(outages.map((o) => o.catchUpMs)),
      each: outages,
    });
  } finally {
    await browser.close();
    await proxy.close();
    await server.stop();
  }
}

runBench(main);
