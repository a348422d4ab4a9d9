import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from './support/test.ts';
import { runServerProcess, type ServerRun } from '../harness/server-process.ts';
import { startFaultProxy, type FaultProxy } from '../harness/fault-proxy.ts';
import { runAsProductionApp } from './support/installed-app.ts';
import { NEUTRAL_EXIT_URL, serveNeutralPages } from './support/neutral-exit.ts';

/**
 * 'Lämna sidan' is in the first HTML and works while the app's script is still on its way (seconds
 * on a slow line): a plain link to the configured neutral page (QUICK_EXIT_URL, which the server
 * fills in), which the script then upgrades. This spec runs its own server, so that it can set and
 * change QUICK_EXIT_URL.
 */
const OTHER_NEUTRAL_URL = 'http://neutral.example/nyheter';

let runDir: string;
let server: ServerRun;
let proxy: FaultProxy | undefined;

async function startServer(quickExitUrl: string, port?: number) {
  const run = await runServerProcess({
    ...(port ? { PORT: String(port) } : {}),
    DATABASE_URL: path.join(runDir, 'app.db'),
    APP_VARIANT: 'barn',
    CLIENT_DIR: path.resolve(import.meta.dirname, '../dist'),
    QUICK_EXIT_URL: quickExitUrl,
    NODE_ENV: undefined,
    REDIS_URL: undefined,
  });
  if (run.exitCode !== null) throw new Error(`the server did not start: ${run.output()}`);
  return run;
}

test.beforeEach(async () => {
  runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-exit-'));
  server = await startServer(NEUTRAL_EXIT_URL);
});
test.afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  await server?.stop();
  fs.rmSync(runDir, { recursive: true, force: true });
});

/** Whether React has taken the element over (its fiber keys on the node). */
const startedOn = (page: Page, selector: string) =>
  page.evaluate(
    (s) => Object.keys(document.querySelector(s) ?? {}).some((key) => key.startsWith('__react')),
    selector,
  );

test("on a slow line, 'Lämna sidan' leaves for the configured neutral page before the app has started", async ({
  browser,
}) => {
  proxy = await startFaultProxy({ target: server.url });
  // The app's scripts arrive 5 s late; the HTML and its stylesheet come at once.
  proxy.addRule({ path: /^\/assets\/.*\.js$/, action: 'slow', delayMs: 5_000 });
  const context = await browser.newContext({ baseURL: proxy.origin });
  await serveNeutralPages(context);
  const page = await context.newPage();

  await page.goto('/', { waitUntil: 'commit' });
  const leave = page.getByRole('button', { name: 'Lämna sidan' });
  await expect(leave).toBeVisible();
  await expect(page.getByRole('link', { name: 'Är det akut? Ring 112.' })).toHaveAttribute('href', 'tel:112');
  expect(await startedOn(page, '[data-quick-exit]')).toBe(false);

  await leave.click();
  await page.waitForURL(NEUTRAL_EXIT_URL);
  await expect(page.getByRole('heading', { name: 'Väder idag' })).toBeVisible();
  await context.close();
});

test("the installed app's first HTML follows a change of QUICK_EXIT_URL, offline too", async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: server.url });
  await serveNeutralPages(context);
  // The quick exit link's address as the HTML brought it, before any script could change it.
  await context.addInitScript(() => {
    new MutationObserver((_records, observer) => {
      const link = document.querySelector('[data-quick-exit]');
      if (!link) return;
      (window as unknown as { __firstHtmlExit: string | null }).__firstHtmlExit = link.getAttribute('href');
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });
  const firstHtmlExit = (page: Page) =>
    page.evaluate(() => (window as unknown as { __firstHtmlExit: string | null }).__firstHtmlExit);
  const page = await context.newPage();
  await runAsProductionApp(page);
  await page.goto('/');
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  expect(await firstHtmlExit(page)).toBe(NEUTRAL_EXIT_URL);

  // The provider changes the neutral page; the installed app starts again.
  const port = Number(new URL(server.url).port);
  await server.stop();
  server = await startServer(OTHER_NEUTRAL_URL, port);
  await page.reload();
  // Its service worker's copy of the HTML still has the old address: the script brings the new one.
  await expect(page.getByRole('button', { name: 'Lämna sidan' })).toHaveAttribute('href', OTHER_NEUTRAL_URL);

  // From the next start on, the first HTML has it, also offline.
  await context.setOffline(true);
  await page.reload();
  expect(await firstHtmlExit(page)).toBe(OTHER_NEUTRAL_URL);
  await expect(page.getByRole('heading', { level: 1, name: 'Stödlinjen' })).toBeVisible();
  await context.setOffline(false);
  await page.getByRole('button', { name: 'Lämna sidan' }).click();
  await page.waitForURL(OTHER_NEUTRAL_URL);
  await context.close();
});
