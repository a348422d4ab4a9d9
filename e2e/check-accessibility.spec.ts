import { expect, test, type Page } from './support/test.ts';
import { childToken, registerChild } from '../harness/actors/child-account.ts';
import { ChildServerView } from '../harness/actors/child-server-view.ts';
import { Counsellor } from '../harness/actors/counsellor.ts';
import { ChildChatPage } from '../harness/page-models/child-chat-page.ts';
import { logInChild } from '../harness/page-models/child-login.ts';
import { ConsoleCounsellorPage } from '../harness/page-models/console-counsellor-page.ts';
import { ConsolePage } from '../harness/page-models/console-page.ts';
import { CreateAccountPage } from '../harness/page-models/create-account-page.ts';
import { childWithHistory } from './support/child-with-history.ts';
import { HistoricChatWindow } from '../harness/page-models/historic-chat-window.ts';
import { LoggedOutPage } from '../harness/page-models/logged-out-page.ts';
import { MyConversationsPage } from '../harness/page-models/my-conversations.ts';
import { NewPostPage } from '../harness/page-models/new-post-page.ts';
import { SettingsPage } from '../harness/page-models/settings-page.ts';
import { StartPage } from '../harness/page-models/start-page.ts';
import { ThreadPage } from '../harness/page-models/thread-page.ts';
import { violationsAtBothWidths } from './support/accessibility.ts';

// Every screen of the child app (Barn) and the counsellor's console, each checked with axe at 320 px
// and at 1280 px. One test per group of screens that share a set-up; the group-support screens are in
// gruppstod/check-meeting-accessibility.spec.ts.

const quickExit = (page: Page) => page.getByRole('button', { name: 'Lämna sidan' });
const emergency = (page: Page) => page.getByRole('link', { name: 'Är det akut? Ring 112.' });

test('the signed-out screens have no accessibility violations', async ({ page }) => {
  const start = new StartPage(page);
  await start.goto();
  await expect(quickExit(page)).toBeVisible();
  await expect(emergency(page)).toBeVisible();
  const found = await violationsAtBothWidths(page);

  const login = await start.openLoginModal();
  await login.pressSubmit();
  await expect(login.alerts).toHaveCount(2);
  await expect(start.loginDialog.getByRole('button', { name: 'Lämna sidan' })).toBeVisible();
  found.push(...(await violationsAtBothWidths(page)));

  const create = new CreateAccountPage(page);
  await create.goto('chat');
  await create.submit.click();
  await expect(create.alerts.first()).toBeVisible();
  found.push(...(await violationsAtBothWidths(page)));

  const loggedOut = new LoggedOutPage(page);
  await loggedOut.goto('?error=session_expired');
  await expect(loggedOut.sessionExpiredText).toBeVisible();
  found.push(...(await violationsAtBothWidths(page)));

  // The app has no 404 screen: an unknown address leads to the start page (checked above).
  await page.goto('/finns-inte');
  await expect(page).toHaveURL(/\/$/);
  expect(found).toEqual([]);
});

test.describe('on a mobile phone', () => {
  test.use({
    userAgent:
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36',
  });

  test('the install modal has no accessibility violations', async ({ page }) => {
    await new StartPage(page).goto();
    await page.evaluate(() => {
      const offer = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
        prompt: async () => ({ outcome: 'dismissed' }),
      });
      window.dispatchEvent(offer);
    });
    await expect(page.getByRole('dialog', { name: 'Installera på din telefon?' })).toBeVisible();
    expect(await violationsAtBothWidths(page)).toEqual([]);
  });
});

test('the signed-in pages have no accessibility violations', async ({ page, request }) => {
  // Seven pages and dialogs, axe at two widths each.
  test.setTimeout(90_000);
  const { account, mailId } = await childWithHistory(request);
  await logInChild(page, account);
  // The chat of today was its one chat of the day (SPEC §9): the start page says so.
  await expect(page.getByText('Du har redan chattat idag.', { exact: false })).toBeVisible();
  await expect(emergency(page)).toBeVisible();
  const found = await violationsAtBothWidths(page);

  const myPages = new MyConversationsPage(page);
  await myPages.goto();
  await expect(myPages.thread('Ett mejl om skolan')).toBeVisible();
  await expect(myPages.historyItems).toHaveCount(1);
  await expect(myPages.contactMessages.getByText('Hämtar meddelanden...')).toHaveCount(0);
  await expect(myPages.notifications.getByText('Hämtar notiser...')).toHaveCount(0);
  found.push(...(await violationsAtBothWidths(page)));

  await myPages.openNewestChat();
  const history = new HistoricChatWindow(page);
  await expect(history.message('Jag heter Kim')).toBeVisible();
  found.push(...(await violationsAtBothWidths(page)));
  await history.back.click();

  const newPost = new NewPostPage(page);
  await newPost.goto();
  await newPost.send.click();
  await expect(newPost.alerts).toHaveCount(2);
  found.push(...(await violationsAtBothWidths(page)));

  await page.goto(`/mina-sidor/inlagg/${mailId}`);
  const thread = new ThreadPage(page);
  await expect(thread.message('Vad bra att du skriver.')).toBeVisible();
  found.push(...(await violationsAtBothWidths(page)));

  const settings = new SettingsPage(page);
  await settings.goto();
  await settings.changePassword.click();
  await expect(settings.passwordAlerts).toHaveCount(3);
  found.push(...(await violationsAtBothWidths(page)));
  await settings.deleteAccountButton.click();
  await expect(settings.deleteDialog).toBeVisible();
  found.push(...(await violationsAtBothWidths(page)));
  expect(found).toEqual([]);
});

test('the chat window in the queue, live and ended has no accessibility violations', async ({
  page,
  request,
}) => {
  const account = await registerChild(request, 'axechatt');
  const server = new ChildServerView(request, await childToken(request, account));
  const counsellor = new Counsellor(request);
  await counsellor.logIn();
  const chat = new ChildChatPage(page);
  await chat.logIn(account);
  await chat.startChat();
  await chat.expectInQueue();
  await expect(chat.dialog.getByRole('link', { name: 'Är det akut? Ring 112.' })).toBeVisible();
  await expect(chat.dialog.getByRole('button', { name: 'Lämna sidan' })).toBeVisible();
  const found = await violationsAtBothWidths(page);

  const [conversation] = await server.conversations();
  await counsellor.accept(conversation!.id);
  await counsellor.write(conversation!.id, 'Hej! Jag heter Kim och är kurator.');
  await chat.expectActive();
  await chat.send('Hej, jag är ledsen idag.');
  await expect(chat.message('Hej, jag är ledsen idag.')).toContainText('Skickat');
  found.push(...(await violationsAtBothWidths(page)));

  await chat.minimize();
  await expect(chat.minimizedBar).toBeVisible();
  found.push(...(await violationsAtBothWidths(page)));
  await chat.minimizedBar.click();

  await chat.dialog.getByRole('button', { name: 'Avsluta', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Bekräfta' })).toBeVisible();
  found.push(...(await violationsAtBothWidths(page)));
  await page.getByRole('dialog', { name: 'Bekräfta' }).getByRole('button', { name: 'Ja, avsluta' }).click();
  await chat.expectEnded();
  found.push(...(await violationsAtBothWidths(page)));
  expect(found).toEqual([]);
});

test('the staff console of a counsellor has no accessibility violations', async ({ page, request }) => {
  const account = await registerChild(request, 'axekonsol');
  const server = new ChildServerView(request, await childToken(request, account));
  const waiting = await server.startChat('Hej, jag vill prata med någon.');
  // A subject no other spec looks for in the shared queue; answered at the end, so it leaves it.
  const mail = await server.sendMail('Tillgänglighetskontroll', 'Hur gör man när man är orolig?');

  const shell = new ConsolePage(page);
  await shell.goto();
  await shell.submit.click();
  await expect(shell.alert).toBeVisible();
  const found = await violationsAtBothWidths(page);

  await shell.signIn('kurator', 'kurator-losenord');
  await expect(shell.signOutButton).toBeVisible();
  const console = new ConsoleCounsellorPage(page);
  await expect(console.queueEntry(waiting.id)).toBeVisible();
  found.push(...(await violationsAtBothWidths(page)));

  await console
    .queueEntry(waiting.id)
    .getByRole('button', { name: /^Ta emot/ })
    .click();
  const open = console.chat(waiting.id);
  await open.send('Hej! Jag heter Kim.');
  await expect(open.message('Hej! Jag heter Kim.')).toBeVisible();
  found.push(...(await violationsAtBothWidths(page)));
  await open.panel.getByRole('button', { name: 'Avsluta chatten' }).click();
  await expect(page.getByRole('dialog', { name: 'Avsluta chatten?' })).toBeVisible();
  found.push(...(await violationsAtBothWidths(page)));
  await page
    .getByRole('dialog', { name: 'Avsluta chatten?' })
    .getByRole('button', { name: 'Ja, avsluta' })
    .click();

  await console.mailQueue.getByRole('button', { name: `Läs och svara: ${mail.subject}` }).click();
  await expect(page.getByRole('article', { name: `Mejl: ${mail.subject}` })).toContainText('Hur gör man');
  found.push(...(await violationsAtBothWidths(page)));
  const counsellor = new Counsellor(request);
  await counsellor.logIn();
  await counsellor.write(mail.id, 'Bra att du skriver.');
  expect(found).toEqual([]);
});
