import { expect, test, type Page } from './support/test.ts';
import { childToken, registerChild } from '../harness/actors/child-account.ts';
import { ChildServerView } from '../harness/actors/child-server-view.ts';
import { Counsellor } from '../harness/actors/counsellor.ts';
import { ChildChatPage } from '../harness/page-models/child-chat-page.ts';
import { ThreadPage } from '../harness/page-models/thread-page.ts';
import { accessibilityViolations } from './support/accessibility.ts';
import { runAsProductionApp } from './support/installed-app.ts';
import {
  clickNotice,
  closeNotices,
  countNoticeShows,
  expectHubConnected,
  expectNotices,
  pretendHidden,
  pretendVisible,
} from './support/system-notices.ts';

const NOTICE = 'Du har ett nytt meddelande';

/** The question in the queue: 'Vill du få en notis när det är din tur?' */
const noticeQuestion = (chat: ChildChatPage) =>
  chat.dialog.getByRole('group', { name: 'Vill du få en notis när det är din tur?' });

/** Notices are shown through the service worker, which the app registers in production only. */
async function productionApp(page: Page) {
  await runAsProductionApp(page);
  await countNoticeShows(page);
  return new ChildChatPage(page);
}

async function serviceWorkerInControl(page: Page) {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

test("a child in the queue is asked once whether they want a notice, and 'Nej tack' asks nothing more", async ({
  page,
  request,
}) => {
  const counsellor = new Counsellor(request);
  await counsellor.logIn();
  await counsellor.emptyQueue();
  const chat = new ChildChatPage(page);
  await chat.logIn(await registerChild(request, 'notis'));
  await chat.startChat();

  const question = noticeQuestion(chat);
  await expect(question.getByRole('button')).toHaveText(['Ja, tack', 'Nej tack']);
  expect(await accessibilityViolations(page, 'dialog[open]')).toEqual([]);
  await question.getByRole('button', { name: 'Nej tack' }).click();
  await expect(question).toHaveCount(0);
  expect(await page.evaluate(() => Notification.permission)).toBe('default');

  await page.reload();
  await chat.minimizedBar.click();
  await chat.expectInQueue();
  await expect(chat.dialog.getByRole('button', { name: 'Lämna kön' })).toBeVisible();
  await expect(question).toHaveCount(0);
  await chat.leaveQueue();
});

test('with notices allowed, a counsellor joining and writing while the page is hidden bring a neutral notice that opens the chat', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(60_000);
  const counsellor = new Counsellor(request);
  await counsellor.logIn();
  await counsellor.emptyQueue();
  const chat = await productionApp(page);
  await chat.logIn(await registerChild(request, 'notis'));
  await serviceWorkerInControl(page);
  await chat.startChat();
  await noticeQuestion(chat).getByRole('button', { name: 'Ja, tack' }).click();
  await expect(noticeQuestion(chat)).toHaveCount(0);
  // The browser's own question cannot be answered in a test: the permission is given instead.
  await context.grantPermissions(['notifications']);

  const id = await counsellor.waitingChat();
  const chatNotice = { title: NOTICE, body: '', tag: `conversation-${id}`, url: '/start#chatt' };
  await counsellor.accept(id);
  await expectNotices(page, [chatNotice], { shows: 1 });
  await closeNotices(page);

  await pretendHidden(page);
  await counsellor.write(id, 'Hej! Jag heter Kim och är kurator.');
  await chat.expectMessage('Hej! Jag heter Kim och är kurator.');
  // Never the message, nor who wrote it.
  await expectNotices(page, [chatNotice], { shows: 2 });

  // SPEC §2: in a tab in front with the chat minimised, the message is not in view either: one notice.
  await pretendVisible(page);
  await closeNotices(page);
  await chat.minimize();
  await counsellor.write(id, 'Är du kvar?');
  await expectNotices(page, [chatNotice], { shows: 3 });
  expect(
    await page.evaluate(() => (window as unknown as { __noticeShows: { done: number } }).__noticeShows.done),
  ).toBe(3);

  // Elsewhere in the app with the chat minimised, a click on the notice brings the chat forward.
  await chat.header.getByRole('button', { name: 'Mina sidor' }).click();
  await expect(page).toHaveURL(/\/mina-sidor$/);
  await clickNotice(context);
  await expect(page).toHaveURL(/\/start$/);
  await chat.expectActive();
  await expect(chat.input).toBeVisible();
  await counsellor.resolve(id);
});

test('with notices allowed, an answered mail brings a neutral notice that opens its thread', async ({
  page,
  context,
  request,
}) => {
  const account = await registerChild(request, 'notis');
  const chat = await productionApp(page);
  await context.grantPermissions(['notifications']);
  await chat.logIn(account);
  await serviceWorkerInControl(page);
  await expectHubConnected(page);
  const mail = await new ChildServerView(request, await childToken(request, account)).sendMail(
    'Skolan',
    'Jag är orolig för provet.',
  );

  const counsellor = new Counsellor(request);
  await counsellor.logIn();
  await counsellor.write(mail.id, 'Hej! Vad bra att du skriver.');
  await expectNotices(
    page,
    [{ title: NOTICE, body: '', tag: `conversation-${mail.id}`, url: `/mina-sidor/inlagg/${mail.id}` }],
    { shows: 1 },
  );

  await clickNotice(context);
  const thread = new ThreadPage(page);
  await expect(page).toHaveURL(new RegExp(`/mina-sidor/inlagg/${mail.id}$`));
  await expect(thread.message('Hej! Vad bra att du skriver.')).toBeVisible();
});
