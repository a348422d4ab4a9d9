import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext } from './support/test.ts';
import { runServerProcess, type ServerRun } from '../harness/server-process.ts';
import { registerChild } from '../harness/actors/child-account.ts';
import { Counsellor } from '../harness/actors/counsellor.ts';
import { ChildChatPage } from '../harness/page-models/child-chat-page.ts';
import { ConsoleCounsellorPage } from '../harness/page-models/console-counsellor-page.ts';
import { ConsolePage } from '../harness/page-models/console-page.ts';
import { accessibilityViolations } from './support/accessibility.ts';

/**
 * SPEC §9: a chat lasts at most 45 minutes a day; the server ends it, and in the last 10 minutes
 * the child and the counsellor see how long is left. So as not to wait 45 minutes, this spec runs
 * its own server (the shared e2e servers keep the real limit for every other spec) with the
 * test-only CHAT_LIMIT_SECONDS: the whole chat is its last minute.
 */
const LIMIT_SECONDS = 40;
const ENDED_AT_LIMIT = 'Chatten har avslutats eftersom tiden för i dag är slut.';

let server: ServerRun;
let runDir: string;
let request: APIRequestContext;

test.beforeAll(async ({ playwright }) => {
  runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-limit-'));
  server = await runServerProcess({
    DATABASE_URL: path.join(runDir, 'app.db'),
    APP_VARIANT: 'barn',
    CLIENT_DIR: path.resolve(import.meta.dirname, '../dist'),
    CHAT_LIMIT_SECONDS: String(LIMIT_SECONDS),
    REGISTRATIONS_PER_ADDRESS: '500',
    RATE_LIMIT_FACTOR: '50',
    NODE_ENV: undefined,
    REDIS_URL: undefined,
  });
  if (server.exitCode !== null) throw new Error(`the server did not start: ${server.output()}`);
  request = await playwright.request.newContext({ baseURL: server.url });
});

test.afterAll(async () => {
  await request?.dispose();
  await server?.stop();
  if (runDir) fs.rmSync(runDir, { recursive: true, force: true });
});

test('the child and the counsellor see the time left, and the chat ends at the limit with a message', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const account = await registerChild(request, 'tid');
  const childContext = await browser.newContext({ baseURL: server.url });
  const staffContext = await browser.newContext({
    baseURL: server.url,
    viewport: { width: 1280, height: 900 },
  });
  try {
    const childPage = await childContext.newPage();
    const child = new ChildChatPage(childPage);
    await child.logIn(account);
    await child.startChat();
    await child.expectInQueue();
    // Waiting in the queue does not count.
    await expect(child.timeLeft).toHaveCount(0);

    const counsellor = new Counsellor(request);
    await counsellor.logIn();
    await expect.poll(() => counsellor.queue().then((q) => q.length)).toBe(1);
    const id = await counsellor.waitingChat();

    const staffPage = await staffContext.newPage();
    await new ConsolePage(staffPage).signInAsCounsellor();
    const console = new ConsoleCounsellorPage(staffPage);
    await console.takeNextButton.click();
    const chat = console.chat(id);
    await expect(chat.status).toHaveText('Aktiv chatt');
    // Accepted, not yet live: the time starts with the counsellor's first message.
    await expect(chat.timeLeft).toHaveCount(0);

    await chat.send('Hej! Jag heter Kim.');
    await child.expectMessage('Hej! Jag heter Kim.');
    await child.expectActive();
    await expect(child.timeLeft).toHaveText('1 minut kvar');
    await expect(chat.timeLeft).toHaveText('1 minut kvar');
    expect(await accessibilityViolations(childPage)).toEqual([]);
    expect(await accessibilityViolations(staffPage)).toEqual([]);

    // The server ends it at the limit: both see why, and neither can write any more.
    await expect(child.message(ENDED_AT_LIMIT)).toBeVisible({ timeout: (LIMIT_SECONDS + 20) * 1000 });
    await child.expectEnded();
    await expect(childPage.getByRole('dialog', { name: 'Chatt avslutad' })).toBeVisible();
    await expect(child.timeLeft).toHaveCount(0);
    await expect(chat.status).toHaveText('Chatten är avslutad');
    await expect(chat.message(ENDED_AT_LIMIT)).toBeVisible();
    await expect(chat.input).toHaveCount(0);
    await expect(chat.timeLeft).toHaveCount(0);

    // Not before the limit: by the server's own clock, the end came LIMIT_SECONDS after the hello
    // (the sweep runs every 5 s).
    const messages = await counsellor.messages(id);
    const hello = Date.parse(messages.find((m) => m.message === 'Hej! Jag heter Kim.')!.loggedDate);
    const end = Date.parse(messages.find((m) => m.message === ENDED_AT_LIMIT)!.loggedDate);
    expect(end - hello).toBeGreaterThanOrEqual(LIMIT_SECONDS * 1000);
    expect(end - hello).toBeLessThan((LIMIT_SECONDS + 10) * 1000);
  } finally {
    await childContext.close();
    await staffContext.close();
  }
});
