import { expect, test, type Locator, type Page } from './support/test.ts';
import { childToken, registerChild } from '../harness/actors/child-account.ts';
import { ChildServerView } from '../harness/actors/child-server-view.ts';
import { Counsellor } from '../harness/actors/counsellor.ts';
import { ChildChatPage } from '../harness/page-models/child-chat-page.ts';
import { NEUTRAL_EXIT_URL, withNeutralExit } from './support/neutral-exit.ts';

// A child who uses no mouse: every step below is a key press or typing (page.keyboard only), and
// the focus is checked where it must land, so the test proves the order a keyboard user meets.

/**
 * Presses Tab (or Shift+Tab) until `target` has the focus, at most `max` times: the target is
 * reachable from where the focus is, in that direction.
 */
async function tabTo(page: Page, target: Locator, { backwards = false, max = 30 } = {}) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  await expect(target).toBeFocused({ timeout: 1 });
}

test('a child signs in, chats with a counsellor, ends the chat and leaves the page with the keyboard only', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(60_000);
  await withNeutralExit(context);
  const account = await registerChild(request, 'tangent');
  const server = new ChildServerView(request, await childToken(request, account));
  const counsellor = new Counsellor(request);
  await counsellor.logIn();
  const chat = new ChildChatPage(page);

  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Hoppa till innehållet' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Lämna sidan' })).toBeFocused();

  // Signing in through the header's login modal: the focus moves into it, to the first field.
  await tabTo(page, chat.loginButton);
  await page.keyboard.press('Enter');
  const login = chat.modalLoginForm();
  await expect(login.username).toBeFocused();
  await page.keyboard.type(account.username);
  await page.keyboard.press('Tab');
  await expect(login.password).toBeFocused();
  await page.keyboard.type(account.password);
  await page.keyboard.press('Enter');
  await expect(chat.logoutButton).toBeVisible();
  await expect(chat.loginDialog).toBeHidden();
  // 'Logga in' gave way to 'Logga ut': the focus is on the page's content, not lost on the body.
  await expect(page.getByRole('main')).toBeFocused();

  // The chat: the window takes the focus; in the queue the child can only wait (or leave).
  await tabTo(page, chat.startButton);
  await page.keyboard.press('Enter');
  await expect(chat.dialog).toBeVisible();
  await chat.expectInQueue();
  await expect(chat.dialog.locator(':focus')).toHaveCount(1);

  const [conversation] = await server.conversations();
  await counsellor.accept(conversation!.id);
  await counsellor.write(conversation!.id, 'Hej! Jag heter Kim och är kurator.');
  await chat.expectMessage('Hej! Jag heter Kim och är kurator.');
  await chat.expectActive();
  await expect(chat.input).toBeEnabled();

  await tabTo(page, chat.input);
  await page.keyboard.type('Jag har bråkat med min bror.');
  await page.keyboard.press('Enter');
  await expect(chat.message('Jag har bråkat med min bror.')).toContainText('Skickat');
  // Sending keeps the focus in the input, ready for the next message.
  await expect(chat.input).toBeFocused();
  await expect(chat.input).toHaveValue('');

  await counsellor.write(conversation!.id, 'Vill du berätta vad som hände?');
  await chat.expectMessage('Vill du berätta vad som hände?');

  // Ending: the confirmation takes the focus; after it the chat says it has ended.
  const end = chat.dialog.getByRole('button', { name: 'Avsluta', exact: true });
  await tabTo(page, end, { backwards: true });
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Bekräfta' });
  await expect(confirm).toBeVisible();
  await expect(confirm.locator(':focus')).toHaveCount(1);
  await tabTo(page, confirm.getByRole('button', { name: 'Ja, avsluta' }));
  await page.keyboard.press('Enter');
  await expect(confirm).toBeHidden();
  await chat.expectEnded();
  await expect
    .poll(async () => (await server.conversation(conversation!.id))?.state)
    .not.toMatch(/^(Queued|Active)$/);
  // 'Avslutad' confirms it and takes the focus; closing it gives the focus back to the chat window.
  const ended = page.getByRole('dialog', { name: 'Avslutad' });
  await expect(ended).toBeVisible();
  await tabTo(page, ended.getByRole('button', { name: 'OK' }));
  await page.keyboard.press('Enter');
  await expect(ended).toBeHidden();
  await expect(chat.dialog.locator(':focus')).toHaveCount(1);

  // Quick exit, reached with Tab from there.
  await tabTo(page, chat.dialog.getByRole('button', { name: 'Lämna sidan' }));
  const left = page.waitForURL(NEUTRAL_EXIT_URL);
  await page.keyboard.press('Enter');
  await left;
  await expect(page.getByRole('heading', { name: 'Väder idag' })).toBeVisible();
});
