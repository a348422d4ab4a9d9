/**
 * Browser latency of the one-to-one chat (npm run bench:chat, after `npm run build`): a real child-app
 * server, one child in Debian Chromium with the real app, a counsellor through the staff API. The
 * counsellor sends BENCH_MESSAGES (default 30) messages; the child's browser records, with a
 * MutationObserver, when each is rendered. Reports p50/p99 of render time minus the moment before
 * the counsellor's POST was made (one machine, one clock).
 */
import { chromium } from '@playwright/test';
import { api, createTestDatabase, login } from '../tests/server/test-server.ts';
import { BENCH_LIMITS, startServerProcess } from '../tests/server/server-process.ts';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 30);
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function main() {
  const database = await createTestDatabase();
  const server = await startServerProcess({
    DATABASE_URL: database.url,
    APP_VARIANT: 'barn',
    ...BENCH_LIMITS,
    CLIENT_DIR: process.env.CLIENT_DIR ?? 'dist',
  });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
    ],
  });
  try {
    const counsellor = (await login(server.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token;
    const page = await (await browser.newContext()).newPage();
    await page.goto(server.url);
    await page.getByRole('banner').getByRole('button', { name: 'Logga in' }).click();
    const form = page.getByRole('form', { name: 'Logga in' });
    await form.getByLabel('Användarnamn').fill('demo');
    await form.getByLabel('Lösenord').fill('demo-losenord');
    await form.getByRole('button', { name: 'Logga in' }).click();
    await page.getByRole('button', { name: 'Starta en chatt' }).click();
    const dialog = page.getByRole('dialog', { name: 'Chatt' });
    await dialog.getByText('Du väntar på din tur').waitFor();

    const queue = (await api(server.url, '/portal/staff/queue', { token: counsellor })).body as {
      value: Array<{ id: number; systemType: string }>;
    };
    const id = queue.value.find((q) => q.systemType === 'chat')!.id;
    await api(server.url, `/portal/staff/conversations/${id}/accept`, { token: counsellor, body: {} });
    await api(server.url, `/portal/staff/conversations/${id}/messages`, {
      token: counsellor,
      body: { content: 'Hej!' },
    });
    await dialog.getByText('Chatt live').waitFor({ timeout: 20_000 });
    await page.evaluate(() => {
      const seen: Record<string, number> = {};
      (window as unknown as { __renders: Record<string, number> }).__renders = seen;
      new MutationObserver(() => {
        const chat = document.querySelector('dialog[open]');
        for (const m of (chat?.textContent ?? '').matchAll(/Mätning (\d+)/g)) seen[m[1]!] ??= Date.now();
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
    });

    const sentAt: number[] = [];
    for (let i = 0; i < MESSAGES; i++) {
      sentAt.push(Date.now());
      await api(server.url, `/portal/staff/conversations/${id}/messages`, {
        token: counsellor,
        body: { content: `Mätning ${i}` },
      });
      await dialog.getByText(`Mätning ${i}`, { exact: true }).waitFor({ timeout: 20_000 });
    }
    const renders = await page.evaluate(
      () => (window as unknown as { __renders: Record<string, number> }).__renders,
    );
    const latencies = sentAt.map((t, i) => renders[String(i)]! - t).sort((a, b) => a - b);
    console.info(
      JSON.stringify(
        {
          messages: MESSAGES,
          p50ms: percentile(latencies, 50),
          p99ms: percentile(latencies, 99),
          maxMs: latencies.at(-1),
        },
        null,
        2,
      ),
    );
  } finally {
    await browser.close();
    await server.stop();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
