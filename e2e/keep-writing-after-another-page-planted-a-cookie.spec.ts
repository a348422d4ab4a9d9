import { ANTI_FORGERY_COOKIE } from '../contract/anti-forgery.ts';
import { expect, test, type Browser, type Page } from './support/test.ts';
import { registerChild } from '../harness/actors/child-account.ts';
import { Counsellor } from '../harness/actors/counsellor.ts';
import { logInChild } from '../harness/page-models/child-login.ts';
import { ChildChatPage } from '../harness/page-models/child-chat-page.ts';
import { NewPostPage } from '../harness/page-models/new-post-page.ts';
import { ThreadPage } from '../harness/page-models/thread-page.ts';
import { startTossingPage } from './support/cookie-tossing.ts';

// Cookie tossing: a page of another app on the app's host (a sibling subdomain or an injected
// plain-http answer could do the same) plants `XSRF-TOKEN` with `Path=/portal/antiforgery`. The
// browser sends it, before the server's own, to the anti-forgery renewal only; a renewal that
// answered it handed the data worker a value no write carries, and every write after was refused
// ('Något blev fel') for the planted cookie's life.

/**
 * Closes the app's last tab and waits until the browser has ended its data worker (a SharedWorker
 * lives as long as a tab of the app): the next tab starts a new one, which asks for the
 * anti-forgery value anew, as the app does after every restart (and on every page load in a
 * browser without SharedWorker).
 */
async function closeTheApp(browser: Browser, page: Page) {
  const cdp = await browser.newBrowserCDPSession();
  try {
    await cdp.send('Target.setDiscoverTargets', { discover: true });
    const { targetInfos } = await cdp.send('Target.getTargets');
    const worker = targetInfos.find((t) => t.type === 'shared_worker');
    if (!worker) throw new Error('no data worker running');
    const ended = new Promise<void>((resolve) =>
      cdp.on('Target.targetDestroyed', ({ targetId }) => {
        if (targetId === worker.targetId) resolve();
      }),
    );
    await page.close();
    await ended;
  } finally {
    await cdp.detach();
  }
}

test('after a page on the same host planted the anti-forgery cookie, the child’s mail and chat message still reach the counsellor', async ({
  browser,
  context,
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const account = await registerChild(request, 'tossad');
  const counsellor = new Counsellor(request);
  await counsellor.logIn();
  await counsellor.emptyQueue();
  const tossing = await startTossingPage({ name: ANTI_FORGERY_COOKIE, path: '/portal/antiforgery' });
  try {
    // The child has used the app in this browser: it holds the server's own cookie, at Path=/.
    await logInChild(page, account);
    const first = new NewPostPage(page);
    await first.goto();
    await first.write('Innan', 'Det första meddelandet.');
    await expect(new ThreadPage(page).message('Det första meddelandet.')).toContainText('Skickat');
    const own = (await context.cookies()).find((c) => c.name === ANTI_FORGERY_COOKIE && c.path === '/');
    expect(own?.value, 'the server’s own anti-forgery cookie').toMatch(/^[A-Za-z0-9_-]{43}$/);

    // Another site's page is opened in the same browser and plants its value for the renewal's path.
    const other = await context.newPage();
    await other.goto(tossing.url);
    await expect(other.getByRole('heading', { name: 'Dagens spel' })).toBeVisible();
    await other.close();
    const jar = await context.cookies('http://127.0.0.1/portal/antiforgery');
    expect(jar.filter((c) => c.name === ANTI_FORGERY_COOKIE).map((c) => `${c.path} ${c.value}`)).toEqual(
      expect.arrayContaining([`/portal/antiforgery ${tossing.value}`, `/ ${own!.value}`]),
    );

    // The app closed and opened again: a new data worker, a renewal that gets both cookies.
    await closeTheApp(browser, page);
    const app = await context.newPage();
    const mail = new NewPostPage(app);
    await mail.goto();
    await expect(mail.logoutButton).toBeVisible();
    await mail.write('Efter', 'Kommer det här fram?');
    const thread = new ThreadPage(app);
    await expect(thread.message('Kommer det här fram?')).toContainText('Skickat');
    await expect
      .poll(async () => (await counsellor.messages(thread.id())).map((m) => m.message))
      .toContain('Kommer det här fram?');

    const chat = new ChildChatPage(app);
    await app.goto('/');
    await chat.startChat();
    await chat.expectInQueue();
    const conversationId = await counsellor.waitingChat();
    await counsellor.accept(conversationId);
    await counsellor.write(conversationId, 'Hej, jag heter Kim.');
    await chat.expectMessage('Hej, jag heter Kim.');
    await chat.expectActive();
    await chat.send('Hej, hör du mig?');
    await expect(chat.message('Hej, hör du mig?')).toContainText('Skickat');
    await expect
      .poll(async () => (await counsellor.messages(conversationId)).map((m) => m.message))
      .toContain('Hej, hör du mig?');
    // The planted cookie is still there: nothing in the app had to remove it.
    expect(
      (await context.cookies('http://127.0.0.1/portal/antiforgery')).some((c) => c.value === tossing.value),
    ).toBe(true);
  } finally {
    await tossing.close();
  }
});
