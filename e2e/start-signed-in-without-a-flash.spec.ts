import { expect, test, type Page } from './support/test.ts';
import { registerChild } from '../harness/actors/child-account.ts';
import { ChildChatPage } from '../harness/page-models/child-chat-page.ts';
import { logInChild } from '../harness/page-models/child-login.ts';
import { startFaultProxy, type FaultProxy } from '../harness/fault-proxy.ts';
import { runAsProductionApp } from './support/installed-app.ts';

declare global {
  interface Window {
    /** Set by the init script: whether any login prompt was on the page at any frame since navigation. */
    __sawLogin?: boolean;
    /** Set by the init script: every text the start page's chat card showed since navigation. */
    __chatCardTexts?: string[];
  }
}

/**
 * From the first script of the page on, every animation frame and every DOM change is checked for a
 * 'Logga in' button or the signed-out start page's text; the first sighting stays recorded.
 */
function watchForLoginPrompt() {
  window.__sawLogin = false;
  const check = () => {
    if (window.__sawLogin) return;
    const buttons = Array.from(document.querySelectorAll('button, a'));
    const loginButton = buttons.some((b) => b.textContent?.trim() === 'Logga in');
    const prompt = document.body?.textContent?.includes('Logga in för att chatta') ?? false;
    if (loginButton || prompt) window.__sawLogin = true;
  };
  const frame = () => {
    check();
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
}

/**
 * From the first script of the page on, every text the start page's chat card shows (at every DOM
 * change and every animation frame), each change recorded once.
 */
function recordChatCard() {
  const texts: string[] = [];
  window.__chatCardTexts = texts;
  const check = () => {
    const card = document.querySelector('[aria-labelledby="start-chat-heading"]');
    const text = card?.textContent ?? '';
    if (card && texts.at(-1) !== text) texts.push(text);
  };
  const frame = () => {
    check();
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
}

async function expectSignedInStartWithoutLogin(page: Page) {
  await expect(page.getByRole('heading', { level: 1, name: 'Hej!', exact: true })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('button', { name: 'Logga ut' })).toBeVisible();
  expect(await page.evaluate(() => window.__sawLogin)).toBe(false);
}

let proxy: FaultProxy;
test.beforeAll(async () => {
  proxy = await startFaultProxy({ target: test.info().project.use.baseURL! });
});
test.afterEach(() => proxy.clearRules());
test.afterAll(async () => proxy?.close());

for (const mode of ['SharedWorker', 'fallback'] as const) {
  test(`with ${mode}: a signed-in child who reloads, opens a tab or starts the installed app cold never sees the login prompt first`, async ({
    browser,
    request,
  }) => {
    // Through the fault proxy, on a slow line: the session check's token call takes 1.5 s.
    const context = await browser.newContext({ baseURL: proxy.origin });
    if (mode === 'fallback')
      await context.addInitScript(() => Reflect.deleteProperty(window, 'SharedWorker'));
    const child = await registerChild(request);
    const page = await context.newPage();
    await runAsProductionApp(page);
    await logInChild(page, child);
    // The installed app: its service worker holds the app shell for the cold start below.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await context.addInitScript(watchForLoginPrompt);
    proxy.addRule({ path: '/connect/token', action: 'slow', delayMs: 1500 });

    await page.reload();
    await expectSignedInStartWithoutLogin(page);

    const second = await context.newPage();
    await second.goto('/');
    await expectSignedInStartWithoutLogin(second);

    // Every tab closed: the data worker ends with the last one, the next start boots it afresh.
    await page.close();
    await second.close();
    const cold = await context.newPage();
    await runAsProductionApp(cold);
    await cold.goto('/');
    await expectSignedInStartWithoutLogin(cold);
    await context.close();
  });
}

test('a child with a chat in the queue who starts the app cold is never offered to start one', async ({
  browser,
  request,
}) => {
  const context = await browser.newContext();
  const chat = new ChildChatPage(await context.newPage());
  await chat.logIn(await registerChild(request, 'kalla'));
  await chat.startChat();
  await chat.expectInQueue();
  await context.addInitScript(recordChatCard);

  // Every tab closed: the data worker ends with the last one, the next start boots it afresh.
  await chat.page.close();
  const cold = new ChildChatPage(await context.newPage());
  await cold.page.goto('/');
  await expect(cold.openButton).toBeVisible();
  const texts = (await cold.page.evaluate(() => window.__chatCardTexts)) ?? [];
  expect(texts.length).toBeGreaterThan(0);
  expect(texts.filter((t) => t.includes('Starta en chatt') || t.includes('Startar chatten'))).toEqual([]);
  await context.close();
});
