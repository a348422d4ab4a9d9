import { expect, test } from './support/test.ts';
import { childToken, registerChild } from '../harness/actors/child-account.ts';
import { ChildServerView } from '../harness/actors/child-server-view.ts';
import { Counsellor } from '../harness/actors/counsellor.ts';
import { ChildChatPage } from '../harness/page-models/child-chat-page.ts';
import { MyConversationsPage } from '../harness/page-models/my-conversations.ts';
import { ThreadPage } from '../harness/page-models/thread-page.ts';
import { keepScreenshot, lostContent, zoomTextTo200 } from './support/text-zoom.ts';

// A child on a 320 px phone with the text zoomed to 200 %: every main screen keeps all of its
// content on the screen, and the controls that matter stay reachable. Screenshots are kept with the
// test results.

test.use({ viewport: { width: 320, height: 640 } });

const LONG_WORD = 'Barnrättsorganisationernas-samverkansgrupp';

test('with the text at 200 % at 320 px the start page, login, chat, my pages and a mail lose nothing', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(60_000);
  await zoomTextTo200(page);
  const account = await registerChild(request, 'storText');
  const server = new ChildServerView(request, await childToken(request, account));
  const counsellor = new Counsellor(request);
  await counsellor.logIn();
  const mail = await server.sendMail(`Om ${LONG_WORD}`, `Jag undrar över ${LONG_WORD}.`);
  await counsellor.write(mail.id, `Hej! Läs mer på https://example.se/${LONG_WORD}/fragor-och-svar`);
  const chat = new ChildChatPage(page);
  const quickExit = page.getByRole('button', { name: 'Lämna sidan' });

  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // The zoom took: the root's font is twice the browser's default.
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize)).toBe('32px');
  await expect.soft(quickExit).toBeInViewport();
  await keepScreenshot(page, testInfo, 'start');
  const lost = { start: await lostContent(page) };

  const login = await chat.openLoginModal();
  await expect(login.submit).toBeVisible();
  await expect.soft(chat.loginDialog.getByRole('button', { name: 'Lämna sidan' })).toBeInViewport();
  await keepScreenshot(page, testInfo, 'login');
  Object.assign(lost, { login: await lostContent(page) });
  await login.logIn(account.username, account.password);
  await expect(chat.logoutButton).toBeVisible();

  await chat.startChat();
  await chat.expectInQueue();
  const [waiting] = (await server.conversations()).filter((c) => c.systemType === 'chat');
  await counsellor.accept(waiting!.id);
  await counsellor.write(waiting!.id, `Hej! Jag heter Kim. Har du hört talas om ${LONG_WORD}?`);
  await chat.expectActive();
  await chat.send(`Nej, vad är ${LONG_WORD}?`);
  await expect(chat.message(`Nej, vad är ${LONG_WORD}?`)).toContainText('Skickat');
  await keepScreenshot(page, testInfo, 'chat-live');
  await expect.soft(chat.input).toBeInViewport();
  await expect.soft(chat.dialog.getByRole('button', { name: 'Skicka' })).toBeInViewport();
  await expect.soft(chat.dialog.getByRole('button', { name: 'Lämna sidan' })).toBeInViewport();
  Object.assign(lost, { chat: await lostContent(page) });
  await chat.endChat();
  await page.getByRole('dialog', { name: 'Avslutad' }).getByRole('button', { name: 'OK' }).click();
  await chat.close();

  const myPages = new MyConversationsPage(page);
  await myPages.goto();
  await expect(myPages.thread(`Om ${LONG_WORD}`)).toBeVisible();
  await expect.soft(quickExit).toBeInViewport();
  await keepScreenshot(page, testInfo, 'my-pages');
  Object.assign(lost, { myPages: await lostContent(page) });

  await myPages.openThread(`Om ${LONG_WORD}`);
  const thread = new ThreadPage(page);
  await expect(thread.message('fragor-och-svar')).toBeVisible();
  await expect.soft(quickExit).toBeInViewport();
  await keepScreenshot(page, testInfo, 'mail-thread');
  Object.assign(lost, { thread: await lostContent(page) });

  expect(lost).toEqual({ start: [], login: [], chat: [], myPages: [], thread: [] });
});
