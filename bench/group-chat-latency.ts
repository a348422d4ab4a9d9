/**
 * Browser latency of the group chat (npm run bench:browsers, after `npm run build`): a real
 * group-support server in production mode, three participants in three Debian Chromium contexts with
 * the real app, and the group leader writing through the staff API. The leader sends BENCH_MESSAGES
 * (default 100) messages, one at a time; each participant's browser records, with a
 * MutationObserver, when the message is rendered in its open chat window. Reports p50/p99 of render
 * time minus the moment the leader's request left (one machine, one clock), and, for the breakdown,
 * the same for a hub client in this process subscribed to the group conversation (server + hub only).
 */
import { HttpTransportType, HubConnectionBuilder, LogLevel } from '@microsoft/signalr';
import type { Page } from '@playwright/test';
import { api, login } from '../harness/test-server.ts';
import {
  latencySummary,
  printReport,
  readRenders,
  runBench,
  startBenchServer,
  watchRenders,
} from './support.ts';
import { launchChromium } from '../harness/chromium.ts';
import { PRODUCTION_ENV } from '../harness/server-process.ts';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 100);
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
    CLIENT_DIR: process.env.CLIENT_DIR ?? 'dist',
    ...PRODUCTION_ENV,
  });
  const browser = await launchChromium();
  const hub = { stop: async () => {} };
  try {
    const leader = (await login(server.url, 'gruppledare', 'gruppledare-losenord', 'portal-staff'))
      .access_token;
    const meetings = (await api(server.url, '/portal/staff/meetings', { token: leader })).body as {
      value: Array<{ id: number; state: string }>;
    };
    const meetingId = meetings.value.find((m) => m.state === 'InProgress')!.id;
    const started = (await api(server.url, `/portal/staff/meetings/${meetingId}/start`, {
      token: leader,
      body: {},
    })) as { body: { conversation?: { id: number } } };
    const conversationId = started.body.conversation!.id;
    await api(server.url, `/portal/staff/meetings/${meetingId}/messages`, {
      token: leader,
      body: { content: 'Välkomna!' },
    });
    const pages = await Promise.all(CODES.map(async () => (await browser.newContext()).newPage()));
    await Promise.all(pages.map((p, i) => openChat(p, server.url, CODES[i]!, meetingId)));
    await Promise.all(pages.map(watchRenders));

    // Server and hub alone: the leader's own hub connection, subscribed to the group conversation.
    const hubArrivals: Record<string, number> = {};
    const connection = new HubConnectionBuilder()
      .withUrl(`${server.url}/hubs/portalaccountevents`, {
        transport: HttpTransportType.WebSockets,
        accessTokenFactory: () => leader,
      })
      .configureLogging(LogLevel.None)
      .build();
    connection.on('SendEvent', (_name: string, data: { message?: { message?: string } }) => {
      const n = /Mätning (\d+)/.exec(data?.message?.message ?? '')?.[1];
      if (n !== undefined) hubArrivals[n] ??= Date.now();
    });
    await connection.start();
    hub.stop = () => connection.stop();
    await connection.invoke('SubscribeToEntity', `Conversation:${conversationId}`);

    const sentAt: number[] = [];
    for (let i = 0; i < MESSAGES; i++) {
      sentAt.push(Date.now());
      const sent = await api(server.url, `/portal/staff/meetings/${meetingId}/messages`, {
        token: leader,
        body: { content: `Mätning ${i}` },
      });
      if (sent.status !== 201) throw new Error(`send failed: ${sent.status}`);
      for (const p of pages)
        await p.getByRole('dialog').getByText(`Mätning ${i}`, { exact: true }).waitFor({ timeout: 20_000 });
    }
    const latencies: number[] = [];
    for (const p of pages) {
      const renders = await readRenders(p);
      sentAt.forEach((t, i) => latencies.push(renders[String(i)]! - t));
    }
    const hubLatencies = sentAt.map((t, i) => hubArrivals[String(i)]! - t);
    printReport({
      messages: MESSAGES,
      receivers: pages.length,
      ...latencySummary(latencies),
      serverAndHub: latencySummary(hubLatencies),
    });
  } finally {
    await hub.stop();
    await browser.close();
    await server.stop();
  }
}

runBench(main);
