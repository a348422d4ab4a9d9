import { yourTurnNotice, threadNotice } from '../contract/system-notices.ts';
import { expect, test, type BrowserContext, type Page, type Worker } from './support/test.ts';
import { childToken, registerChild } from '../harness/actors/child-account.ts';
import { ChildServerView } from '../harness/actors/child-server-view.ts';
import { Counsellor } from '../harness/actors/counsellor.ts';
import { ChildChatPage } from '../harness/page-models/child-chat-page.ts';
import { ThreadPage } from '../harness/page-models/thread-page.ts';
import { runAsProductionApp } from './support/installed-app.ts';
import {
  countSubscribes,
  expectSubscribesSettled,
  pushChannel,
  runningServiceWorker,
  serviceWorkerNotices,
} from './support/web-push.ts';

// Web Push with the app closed (docs/decisions.md, "Web Push on the device"). The push service is
// played through the DevTools protocol (ServiceWorker.deliverPushMessage): Chromium's own subscribe
// needs Google's push service, which this machine cannot reach, so the app's subscribe fails here,
// quietly, as it would on a phone without a push service.

const noticeQuestion = (chat: ChildChatPage) =>
  chat.dialog.getByRole('group', { name: 'Vill du få en notis när det är din tur?' });

/** The page broke: the error boundary's text. */
const brokenScreen = (page: Page) => page.getByText('Sidan kunde inte laddas', { exact: false });

async function productionApp(page: Page) {
  await runAsProductionApp(page);
  await countSubscribes(page);
  return new ChildChatPage(page);
}

async function serviceWorkerInControl(page: Page) {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

/** Closes every tab of the app, keeping one blank page (a context with no page would close). */
async function closeTheApp(context: BrowserContext): Promise<Page> {
  const blank = await context.newPage();
  for (const page of context.pages()) if (page !== blank) await page.close();
  return blank;
}

/**
 * A click on the one notice shown, as far as a test can take it. Nobody can click a system
 * notification in a test, so the service worker is handed the event the browser would give it. Its
 * handler then asks for a new window for the notice's address, and Chromium refuses: only a click
 * the browser itself delivered may open a window ("InvalidAccessError: Not allowed to open a
 * window", also with the DevTools protocol's userGesture). So the test records what the handler
 * asked for and the browser's answer; the caller opens that address as the new window would.
 */
async function clickNotice(worker: Worker): Promise<{ asked: string; answer: string }> {
  return worker.evaluate(async () => {
    const scope = self as unknown as ServiceWorkerGlobalScope;
    const openWindow = scope.clients.openWindow.bind(scope.clients);
    const opened = new Promise<{ asked: string; answer: string }>((resolve) => {
      scope.clients.openWindow = (url: string | URL) => {
        const opening = openWindow(url);
        opening.then(
          (client) => resolve({ asked: String(url), answer: `opened ${client?.url ?? ''}` }),
          (error: unknown) => resolve({ asked: String(url), answer: String(error) }),
        );
        return opening;
      };
    });
    const [notification] = await scope.registration.getNotifications();
    if (!notification) throw new Error('no notice to click');
    try {
      scope.dispatchEvent(new NotificationEvent('notificationclick', { notification }));
    } catch {
      // A test's event is not the browser's: its waitUntil refuses, after the handler started.
    }
    return opened;
  });
}

/**
 * Delivers `data` and waits until the service worker's push handler has finished with it (the
 * promise it handed to waitUntil), so a test can see that nothing was shown without waiting a while.
 */
async function deliverAndWait(
  push: { deliver: (data: unknown) => Promise<unknown> },
  worker: Worker,
  data: unknown,
) {
  await worker.evaluate(() => {
    const scope = self as unknown as ServiceWorkerGlobalScope & { __pushHandled?: Promise<unknown> };
    const waitUntil = ExtendableEvent.prototype.waitUntil;
    let handled: (p: Promise<unknown>) => void = () => undefined;
    scope.__pushHandled = new Promise<unknown>((resolve) => (handled = resolve)).then((p) => p);
    ExtendableEvent.prototype.waitUntil = function (this: ExtendableEvent, promise: Promise<unknown>) {
      if (this.type === 'push') handled(promise);
      return waitUntil.call(this, promise);
    };
  });
  await push.deliver(data);
  await worker.evaluate(() =>
    (self as unknown as { __pushHandled: Promise<unknown> }).__pushHandled.then(() => undefined),
  );
}

test('with notices allowed and the app closed, a counsellor taking the chat brings "Det är din tur", and its click opens the chat', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const origin = new URL(baseURL!).origin;
  const counsellor = new Counsellor(request);
  await counsellor.logIn();
  await counsellor.emptyQueue();
  const account = await registerChild(request, 'push');
  const chat = await productionApp(page);
  await chat.logIn(account);
  await serviceWorkerInControl(page);
  await chat.startChat();
  await noticeQuestion(chat).getByRole('button', { name: 'Ja, tack' }).click();
  // The browser's own question cannot be answered in a test: the permission is given instead, and
  // the app subscribes once it hears of it.
  await context.grantPermissions(['notifications']);
  await expectSubscribesSettled(page, 1);
  // No push service here: the subscribe failed, and the child waits on as before.
  await chat.expectInQueue(1);
  await expect(noticeQuestion(chat)).toHaveCount(0);
  await expect(brokenScreen(page)).toHaveCount(0);

  const id = await counsellor.waitingChat();
  try {
    const blank = await closeTheApp(context);
    const push = await pushChannel(context, blank, origin);
    // The server pushes when the counsellor takes the chat; the counsellor greets the child at once.
    await counsellor.accept(id);
    await counsellor.write(id, 'Hej! Jag heter Kim och är kurator.');
    await push.deliver(yourTurnNotice(id));
    const worker = await runningServiceWorker(context);
    // The title alone: no body, no name, no message.
    await expect
      .poll(() => serviceWorkerNotices(worker))
      .toEqual([{ title: 'Det är din tur', body: '', tag: `conversation-${id}`, url: '/start#chatt' }]);

    const click = await clickNotice(worker);
    expect(click).toEqual({
      asked: '/start#chatt',
      answer: 'InvalidAccessError: Not allowed to open a window.',
    });
    // The new window the click asks for, opened here: the app starts on the chat, live.
    const opened = new ChildChatPage(await context.newPage());
    await opened.page.goto(click.asked);
    await expect(opened.dialog).toBeVisible();
    await opened.expectActive();
    await opened.expectMessage('Hej! Jag heter Kim och är kurator.');
    await expect(opened.input).toBeVisible();
  } finally {
    await counsellor.resolve(id);
  }
});

test('with a tab of the app in view, a push shows no notice: the tab tells the child itself', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  const origin = new URL(baseURL!).origin;
  const chat = await productionApp(page);
  await context.grantPermissions(['notifications']);
  await chat.logIn(await registerChild(request, 'push'));
  await serviceWorkerInControl(page);
  expect(await page.evaluate(() => document.visibilityState)).toBe('visible');

  const push = await pushChannel(context, page, origin);
  const worker = await runningServiceWorker(context);
  await deliverAndWait(push, worker, yourTurnNotice(4711));
  expect(await serviceWorkerNotices(worker)).toEqual([]);
});

test('with the app closed, an answered mail brings a neutral notice whose click opens the thread', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  const origin = new URL(baseURL!).origin;
  const account = await registerChild(request, 'push');
  const chat = await productionApp(page);
  await chat.logIn(account);
  await serviceWorkerInControl(page);
  const mail = await new ChildServerView(request, await childToken(request, account)).sendMail(
    'Skolan',
    'Jag är orolig för provet.',
  );
  await context.grantPermissions(['notifications']);

  const blank = await closeTheApp(context);
  const push = await pushChannel(context, blank, origin);
  const counsellor = new Counsellor(request);
  await counsellor.logIn();
  await counsellor.write(mail.id, 'Hej! Vad bra att du skriver.');
  const notice = threadNotice({ peers: false }, mail.id);
  await push.deliver(notice);
  const worker = await runningServiceWorker(context);
  await expect
    .poll(() => serviceWorkerNotices(worker))
    .toEqual([
      { title: 'Du har ett nytt meddelande', body: '', tag: `conversation-${mail.id}`, url: notice.url },
    ]);

  const click = await clickNotice(worker);
  expect(click.asked).toBe(`/mina-sidor/inlagg/${mail.id}`);
  const opened = await context.newPage();
  await opened.goto(click.asked);
  await expect(new ThreadPage(opened).message('Hej! Vad bra att du skriver.')).toBeVisible();
});
