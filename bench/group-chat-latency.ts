/**
 * Browser latency of the group chat (npm run bench:browsers, after `npm run build`): a real
 * group-support server, three participants in three Debian Chromium contexts with the real app, a
 * group leader through the staff API. Participant A sends BENCH_MESSAGES (default 20) messages; each
 * of the other two browsers records, with a MutationObserver, when the message is rendered. Reports
 * p50/p99 of render time minus the moment A pressed send (one machine, one clock).
 */
import type { Page } from '@playwright/test';
import { api, login } from '../tests/server/test-server.ts';
import {
  latencySummary,
  launchChromium,
  printReport,
  readRenders,
  runBench,
  startBenchServer,
  watchRenders,
} from './support.ts';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 20);
const CODES = ['DEMOKOD-0001', 'DEMOKOD-0002', 'DEMOKOD-0003'];

async function openChat(page: Page, url: string, code: string, meetingId: number) {
  await page.goto(url);
  const form = page.getByRole('form', { name: 'Logga in' });
  await form.getByLabel('Personlig kod').fill(code);
  await form.getByRole('button', { name: 'Logga in' }).click();
  await page.getByRole('banner').getByRole('button', { name: 'Logga ut' }).waitFor();
  await page.goto(`${url}/tillfalle/${meetingId}`);
  // The chat opens by itself when it is active; otherwise through 'Öppna chatt'.
  const open = page.getByRole('button', { name: 'Öppna chatt' });
  const box = page.getByRole('dialog').getByRole('textbox', { name: 'Meddelande' });
  await open.or(box).first().waitFor({ timeout: 20_000 });
  if (await open.isVisible()) await open.click();
  await box.waitFor();
  await page.getByRole('dialog').getByText('Gruppchatten har startat').waitFor({ timeout: 20_000 });
}

async function main() {
  const server = await startBenchServer({
    APP_VARIANT: 'gruppstod',
    CLIENT_DIR: 'dist',
  });
  const browser = await launchChromium();
  try {
    const leader = (await login(server.url, 'gruppledare', 'gruppledare-losenord', 'portal-staff'))
      .access_token;
    const meetings = (await api(server.url, '/portal/staff/meetings', { token: leader })).body as {
      value: Array<{ id: number; state: string }>;
    };
    const meetingId = meetings.value.find((m) => m.state === 'InProgress')!.id;
    await api(server.url, `/portal/staff/meetings/${meetingId}/start`, { token: leader, body: {} });
    await api(server.url, `/portal/staff/meetings/${meetingId}/messages`, {
      token: leader,
      body: { content: 'Välkomna!' },
    });
    const pages = await Promise.all(CODES.map(async () => (await browser.newContext()).newPage()));
    await Promise.all(pages.map((p, i) => openChat(p, server.url, CODES[i]!, meetingId)));
    const [sender, ...receivers] = pages as [Page, Page, Page];
    await Promise.all(receivers.map(watchRenders));

    const sentAt: number[] = [];
    const input = sender.getByRole('dialog').getByRole('textbox', { name: 'Meddelande' });
    for (let i = 0; i < MESSAGES; i++) {
      await input.fill(`Mätning ${i}`);
      await input.waitFor({ state: 'visible' });
      sentAt.push(await sender.evaluate(() => Date.now()));
      await sender.getByRole('dialog').getByRole('button', { name: 'Skicka', exact: true }).click();
      for (const r of receivers)
        await r.getByRole('dialog').getByText(`Mätning ${i}`, { exact: true }).waitFor({ timeout: 20_000 });
    }
    const latencies: number[] = [];
    for (const r of receivers) {
      const renders = await readRenders(r);
      sentAt.forEach((t, i) => latencies.push(renders[String(i)]! - t));
    }
    printReport({ messages: MESSAGES, receivers: receivers.length, ...latencySummary(latencies) });
  } finally {
    await browser.close();
    await server.stop();
  }
}

runBench(main);
