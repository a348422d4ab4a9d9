/**
 * Browser latency of the one-to-one chat (npm run bench:chat, after `npm run build`): a real child-app
 * server, one child in Debian Chromium with the real app, a counsellor through the staff API. The
 * counsellor sends BENCH_MESSAGES (default 100) messages; the child's browser
 * records, with a MutationObserver, when each is rendered. Reports p50/p99 of render time minus the moment before
 * the counsellor's POST was made (one machine, one clock).
 */
import { api, login } from '../harness/test-server.ts';
import {
  demoChildInLiveChat,
  latencySummary,
  printReport,
  readRenders,
  runBench,
  startBenchServer,
  watchRenders,
} from './support.ts';
import { launchChromium } from '../harness/chromium.ts';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 100);

async function main() {
  const server = await startBenchServer({
    APP_VARIANT: 'barn',
    CLIENT_DIR: process.env.CLIENT_DIR ?? 'dist',
  });
  const browser = await launchChromium();
  try {
    const counsellor = (await login(server.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token;
    const page = await (await browser.newContext()).newPage();
    const { dialog, id } = await demoChildInLiveChat(page, server.url, server.url, counsellor);
    await watchRenders(page);

    const sentAt: number[] = [];
    for (let i = 0; i < MESSAGES; i++) {
      sentAt.push(Date.now());
      await api(server.url, `/portal/staff/conversations/${id}/messages`, {
        token: counsellor,
        body: { content: `Mätning ${i}` },
      });
      await dialog.getByText(`Mätning ${i}`, { exact: true }).waitFor({ timeout: 20_000 });
    }
    const renders = await readRenders(page);
    const latencies = sentAt.map((t, i) => renders[String(i)]! - t);
    printReport({ messages: MESSAGES, ...latencySummary(latencies) });
  } finally {
    await browser.close();
    await server.stop();
  }
}

runBench(main);
