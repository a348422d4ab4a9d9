import { expect, test, type APIRequestContext } from './support/test.ts';
import { childToken, registerChild } from '../harness/actors/child-account.ts';
import { ChildServerView } from '../harness/actors/child-server-view.ts';
import { Counsellor } from '../harness/actors/counsellor.ts';
import { logInChild } from '../harness/page-models/child-login.ts';
import { HistoricChatWindow } from '../harness/page-models/historic-chat-window.ts';
import { MyConversationsPage } from '../harness/page-models/my-conversations.ts';
import { accessibilityViolations } from './support/accessibility.ts';

const COUNSELLOR_TEXT = 'Hej! Jag heter Kim och jag är kurator.';
const CHILD_TEXT = 'Hej, jag vill prata om min kompis.';

/** A fresh child with one chat a counsellor answered and ended: every test starts from its own. */
async function childWithFinishedChat(request: APIRequestContext) {
  const account = await registerChild(request, 'historik');
  const server = new ChildServerView(request, await childToken(request, account));
  const chat = await server.startChat(CHILD_TEXT);
  const counsellor = new Counsellor(request);
  await counsellor.logIn();
  await counsellor.accept(chat.id);
  await counsellor.write(chat.id, COUNSELLOR_TEXT);
  await counsellor.resolve(chat.id);
  return { account, server, chatId: chat.id };
}

for (const width of [320, 1280]) {
  test(`my pages with the chat history and the historic chat window have no accessibility violations at ${width} px`, async ({
    page,
    request,
  }) => {
    const { account } = await childWithFinishedChat(request);
    await page.setViewportSize({ width, height: 800 });
    await logInChild(page, account);
    const myPages = new MyConversationsPage(page);
    await myPages.goto();
    await expect(myPages.historyItems).toHaveCount(1);
    expect(await accessibilityViolations(page)).toEqual([]);

    await myPages.openNewestChat();
    const window = new HistoricChatWindow(page);
    await expect(window.message(COUNSELLOR_TEXT)).toBeVisible();
    expect(await accessibilityViolations(page)).toEqual([]);
  });
}

test('a child stars a finished chat, un-stars it and deletes it from the account', async ({
  page,
  request,
}) => {
  const { account, server, chatId } = await childWithFinishedChat(request);
  await logInChild(page, account);
  const myPages = new MyConversationsPage(page);
  await myPages.goto();
  await expect(myPages.history.getByRole('heading', { name: 'Chatthistorik' })).toBeVisible();
  await myPages.openNewestChat();

  const window = new HistoricChatWindow(page);
  await expect(window.message(CHILD_TEXT)).toBeVisible();
  // The child's own words are 'Du' here as in the live chat; 'Kille, 13 år' is the counsellor's label.
  await expect(window.message(CHILD_TEXT)).toContainText('Du');
  await expect(window.message(CHILD_TEXT)).not.toContainText(/\d+ år/);
  await expect(window.message(COUNSELLOR_TEXT)).toContainText('Stödlinjen Kurator');
  await expect(window.footer).toBeVisible();
  await expect(window.star).toHaveAttribute('aria-pressed', 'false');

  await window.star.click();
  await expect(window.star).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(async () => (await server.conversation(chatId))?.rating).toBe(5);

  // The star stays after a reload: in the list and in the window.
  await page.reload();
  await expect(myPages.historyItems.first().getByText('Favorit')).toBeAttached();
  await myPages.openNewestChat();
  await expect(window.star).toHaveAttribute('aria-pressed', 'true');

  await window.star.click();
  await expect(window.star).toHaveAttribute('aria-pressed', 'false');
  await expect.poll(async () => (await server.conversation(chatId))?.rating).toBe(1);
  await window.back.click();
  await expect(window.dialog).toBeHidden();
  await expect(myPages.historyItems.first().getByText('Favorit')).not.toBeAttached();

  await myPages.openNewestChat();
  await window.trash.click();
  await expect(window.confirm).toContainText(
    'Är du säker på att du vill ta bort chatten? Den försvinner från ditt konto, kopplas bort från ditt användarnamn och rensas från personuppgifter.',
  );
  await window.confirm.getByRole('button', { name: 'Avbryt' }).click();
  await expect(window.confirm).toBeHidden();
  await expect(window.dialog).toBeVisible();
  expect(await server.conversation(chatId)).toBeDefined();

  await window.trash.click();
  await window.confirm.getByRole('button', { name: 'Ja, ta bort' }).click();
  await expect(window.dialog).toBeHidden();
  await expect(myPages.history.getByText('Du har inga avslutade chattar.')).toBeVisible();
  await expect(myPages.historyItems).toHaveCount(0);

  // The server no longer gives the chat or its content to the child.
  expect(await server.conversation(chatId)).toBeUndefined();
  expect(await server.messages(chatId)).toBeNull();
  await page.reload();
  await expect(myPages.history.getByText('Du har inga avslutade chattar.')).toBeVisible();
});
