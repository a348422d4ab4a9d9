import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, expect, test, type BrowserContext, type Page } from './support/test.ts';
import { registerChild, type ChildAccount } from '../harness/actors/child-account.ts';
import { Counsellor } from '../harness/actors/counsellor.ts';
import { ChildChatPage } from '../harness/page-models/child-chat-page.ts';
import { LoggedOutPage } from '../harness/page-models/logged-out-page.ts';
import { StartPage } from '../harness/page-models/start-page.ts';
import { startFaultProxy, type FaultProxy } from '../harness/fault-proxy.ts';
import { accessibilityViolations } from './support/accessibility.ts';
import { leftBehind, readStoredData } from './support/stored-data.ts';

// Shared-device mode: a child who ticks 'Jag använder en delad mobil eller dator' leaves
// nothing of the session on the device, not even while signed in; closing every tab ends it, so does
// a quick exit, and so do 15 minutes without use.

let proxy: FaultProxy;
test.beforeEach(async () => {
  // Records every URL the app's worker fetched, so the HTTP cache can be probed for each.
  proxy = await startFaultProxy({ target: test.info().project.use.baseURL! });
});
test.afterEach(async () => {
  await proxy.close();
});

const fetchedUrls = () => [...new Set(proxy.requestLog.filter((r) => r.method === 'GET').map((r) => r.path))];

async function logInShared(page: Page, account: ChildAccount) {
  const start = new StartPage(page);
  await start.goto();
  const login = await start.openLoginModal();
  await expect(login.form).toContainText('går inte att läsa utan internet');
  await login.logIn(account.username, account.password, { sharedDevice: true });
  await expect(start.logoutButton).toBeVisible();
}

test('a chat on a shared phone is kept nowhere on it, and closing every tab ends the session', async ({
  request,
}) => {
  test.setTimeout(90_000);
  const account = await registerChild(request, 'delad');
  const counsellor = new Counsellor(request);
  await counsellor.logIn();
  await counsellor.emptyQueue();
  // A persistent profile, as a phone's browser is: what it keeps outlives the closed tabs.
  const profile = await mkdtemp(path.join(os.tmpdir(), 'shared-phone-'));
  const launch = () =>
    chromium.launchPersistentContext(profile, {
      ...test.info().project.use.launchOptions,
      locale: 'sv-SE',
      baseURL: proxy.origin,
    });
  let context: BrowserContext = await launch();
  try {
    const chat = new ChildChatPage(await context.newPage());
    await logInShared(chat.page, account);
    await chat.startChat();
    await chat.expectInQueue();
    const conversationId = await counsellor.waitingChat();
    await counsellor.accept(conversationId);
    const answer = `Hej ${account.username}, jag heter Kim.`;
    await counsellor.write(conversationId, answer);
    await chat.expectMessage(answer);
    const question = 'Kan någon annan se det här?';
    await chat.send(question);
    await expect(chat.message(question)).toContainText('Skickat');

    // A second tab joins the session kept in memory: it is signed in and shows the same chat.
    const second = new ChildChatPage(await context.newPage());
    await second.page.goto('/');
    await expect(second.logoutButton).toBeVisible();
    await second.openButton.click();
    await second.expectMessage(answer);

    const secrets = [account.username, answer, question];
    // Even while signed in, the device holds none of it (the normal mode would: see the logout spec).
    expect(leftBehind(await readStoredData(second.page, fetchedUrls()), secrets)).toEqual([]);

    // Every tab closed, the browser still running: the session went with the last tab.
    for (const page of context.pages()) await page.close();
    const next = await context.newPage();
    await new StartPage(next).goto();
    await expect(new StartPage(next).loginButton).toBeVisible();
    expect(leftBehind(await readStoredData(next, fetchedUrls()), secrets)).toEqual([]);
    // And after a restart of the browser, what its profile kept on disk holds none of it either.
    await context.close();
    context = await launch();
    const afterRestart = await context.newPage();
    await new StartPage(afterRestart).goto();
    await expect(new StartPage(afterRestart).loginButton).toBeVisible();
    expect(leftBehind(await readStoredData(afterRestart, fetchedUrls()), secrets)).toEqual([]);
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
});

test('a quick exit on a shared phone signs out, and every tab of the app leaves', async ({
  browser,
  request,
}) => {
  const account = await registerChild(request, 'delad');
  const context = await browser.newContext({ baseURL: proxy.origin });
  await context.route('**/config.json', async (route) => {
    const response = await route.fetch();
    await route.fulfill({
      response,
      json: { ...(await response.json()), quickExitUrl: 'http://neutral.example/' },
    });
  });
  await context.route('http://neutral.example/**', (route) =>
    route.fulfill({ contentType: 'text/html; charset=utf-8', body: '<!doctype html><title>Väder</title>' }),
  );
  const first = await context.newPage();
  await logInShared(first, account);
  const other = new StartPage(await context.newPage());
  await other.goto();
  await expect(other.logoutButton).toBeVisible();

  await first.getByRole('button', { name: 'Lämna sidan' }).click();
  await expect(first).toHaveURL('http://neutral.example/');
  // No question asked: the other tab leaves too (a chat left open there is one tap away)...
  await expect(other.page).toHaveURL('http://neutral.example/');
  // ...and whoever opens the app again finds it signed out.
  const again = new StartPage(await context.newPage());
  await again.goto();
  await expect(again.loginButton).toBeVisible();
  await context.close();
});

test('after 13 idle minutes the child is asked to go on, and after 15 signed out', async ({
  browser,
  request,
}) => {
  const account = await registerChild(request, 'delad');
  const context = await browser.newContext({ baseURL: proxy.origin });
  const page = await context.newPage();
  await page.clock.install();
  await logInShared(page, account);
  const warning = page.getByRole('dialog', { name: 'Du loggas snart ut. Vill du fortsätta?' });

  await page.clock.fastForward('12:00');
  await expect(warning).toBeHidden();
  await page.clock.fastForward('01:10');
  await expect(warning).toBeVisible();
  await expect(warning).toContainText('Om du inte svarar loggas du ut om 2 minuter.');
  expect(await accessibilityViolations(page)).toEqual([]);
  await warning.getByRole('button', { name: 'Fortsätt' }).click();
  await expect(warning).toBeHidden();
  // The dialog answers half a second after it closes (SPEC §2): let that moment pass in order.
  await page.clock.runFor(1_000);
  await expect(new StartPage(page).logoutButton).toBeVisible();

  // Going on counts as use: the next question comes 13 minutes later, and then the end.
  await page.clock.fastForward('13:10');
  await expect(warning).toBeVisible();
  await page.clock.fastForward('02:00');
  await expect(page).toHaveURL(/\/utloggad\?error=session_expired$/);
  await expect(new LoggedOutPage(page).sessionExpiredText).toBeVisible();
  await context.close();
});

test('without SharedWorker the session is kept in the tab’s own worker, in memory', async ({
  browser,
  request,
}) => {
  const account = await registerChild(request, 'delad');
  const context = await browser.newContext({ baseURL: proxy.origin });
  // As on browsers without SharedWorker: each tab runs a dedicated data worker, so a session of its own.
  await context.addInitScript(() => Reflect.deleteProperty(window, 'SharedWorker'));
  const page = await context.newPage();
  await logInShared(page, account);
  expect(leftBehind(await readStoredData(page, fetchedUrls()), [account.username])).toEqual([]);
  // The tab's worker, and the session with it, goes with the page: a reload starts signed out.
  await page.reload();
  await expect(new StartPage(page).loginButton).toBeVisible();
  await context.close();
});
