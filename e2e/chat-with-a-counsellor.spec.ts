import { expect, test, type Browser } from './support/test.ts';
import { registerChild, type ChildAccount } from '../harness/actors/child-account.ts';
import { Counsellor } from '../harness/actors/counsellor.ts';
import { ChildChatPage } from '../harness/page-models/child-chat-page.ts';
import { accessibilityViolations } from './support/accessibility.ts';

declare global {
  interface Window {
    /** Set by watchFirstWords: each text of the chat window that held the words and the queue's parts. */
    __mixedFrames?: string[];
  }
}

/**
 * At every DOM change and animation frame, records any state of the chat window that shows `words`
 * while it still shows the queue's status, its 'Lämna kön' or its breathing exercise.
 */
function watchFirstWords(words: string) {
  const mixed: string[] = [];
  window.__mixedFrames = mixed;
  const queueParts = ['Du väntar på din tur', 'Lämna kön', 'Medan du väntar'];
  const check = () => {
    const text = document.querySelector('[role="dialog"]')?.textContent ?? '';
    if (text.includes(words) && queueParts.some((part) => text.includes(part))) mixed.push(text);
  };
  const frame = () => {
    check();
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
}

async function childInBrowser(browser: Browser, account: ChildAccount, dedicatedWorker = false) {
  const context = await browser.newContext();
  // As on browsers without SharedWorker: the data worker then runs as the page's dedicated worker,
  // which the browser's offline emulation reaches (it does not reach a SharedWorker).
  if (dedicatedWorker) await context.addInitScript(() => Reflect.deleteProperty(window, 'SharedWorker'));
  const chat = new ChildChatPage(await context.newPage());
  await chat.logIn(account);
  return { context, chat };
}

test('two children queue, a counsellor chats with the first, messages written offline arrive once and in order', async ({
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const counsellor = new Counsellor(request);
  await counsellor.logIn();
  await counsellor.emptyQueue();

  const first = await childInBrowser(browser, await registerChild(request, 'forst'), true);
  const second = await childInBrowser(browser, await registerChild(request, 'andra'));

  await first.chat.startChat();
  await first.chat.expectInQueue(1);
  await second.chat.startChat();
  await second.chat.expectInQueue(2);
  // The queue's bot messages come one by one (2 s, 6 s, 4 s, 0.5 s), then the place in the queue.
  await expect(first.chat.messages).toContainText('Du har plats 1 i kön', { timeout: 20_000 });
  await expect(first.chat.dialog.getByText('Vill du beskriva vad du vill chatta om?')).toBeVisible();
  await first.chat.dialog.getByRole('button', { name: 'Ja, det vill jag' }).click();
  await expect(first.chat.input).toHaveAttribute('placeholder', 'Vad vill du chatta om?');
  await first.chat.send('Jag är ledsen för att jag bråkat med en kompis.');
  await expect(first.chat.message('Jag är ledsen för att jag bråkat med en kompis.')).toContainText(
    'Dina tankar',
  );
  await expect(first.chat.messages).toContainText('Ditt meddelande har skickats');
  await expect(first.chat.input).toBeDisabled();
  expect(await accessibilityViolations(first.chat.page)).toEqual([]);

  const [waiting] = (await counsellor.queue()).filter((q) => q.systemType === 'chat');
  expect(waiting).toBeDefined();
  const conversationId = waiting!.id;
  await counsellor.accept(conversationId);
  await counsellor.write(conversationId, 'Hej! Jag heter Kim och är kurator. Berätta mer.');

  await first.chat.expectMessage('Hej! Jag heter Kim och är kurator. Berätta mer.');
  await first.chat.expectActive();
  await expect(first.chat.messages).toContainText('Du har nu kopplats fram till en kurator');
  await expect(first.chat.messages).not.toContainText('Du har plats 1 i kön');
  await expect(first.chat.input).toHaveAttribute('placeholder', 'Skriv ditt meddelande');
  await counsellor.typing(conversationId);
  await expect(first.chat.dialog.getByText('Stödlinjen Kurator skriver')).toBeVisible();
  await first.chat.send('Vi var osams på rasten.');
  await expect(first.chat.message('Vi var osams på rasten.')).toContainText('Skickat');
  // Minimised, a new counsellor message shows on the bar.
  await first.chat.minimize();
  await expect(first.chat.minimizedBar).toHaveText('Aktiv chatt');
  await counsellor.write(conversationId, 'Vad hände sen?');
  await expect(first.chat.minimizedBar).toHaveText('Nya meddelanden!');
  await first.chat.minimizedBar.click();
  await first.chat.expectMessage('Vad hände sen?');

  // Offline mid-chat: two messages wait in the outbox and go once, in order, when the network returns.
  await first.context.setOffline(true);
  await first.chat.send('Hon sa något elakt.');
  await first.chat.send('Sen gick jag hem.');
  await expect(first.chat.message('Sen gick jag hem.')).toContainText('Väntar på nätet');
  const trouble = first.chat.dialog.getByText('Internetuppkopplingen verkar svajig.', { exact: false });
  await expect(trouble).toBeVisible({ timeout: 15_000 });
  await first.context.setOffline(false);
  await expect(first.chat.message('Hon sa något elakt.')).toContainText('Skickat');
  await expect(first.chat.message('Sen gick jag hem.')).toContainText('Skickat');
  await expect(trouble).toBeHidden({ timeout: 15_000 });
  await expect
    .poll(async () => (await counsellor.messages(conversationId)).map((m) => m.message))
    .toEqual([
      'Jag är ledsen för att jag bråkat med en kompis.',
      'Hej! Jag heter Kim och är kurator. Berätta mer.',
      'Vi var osams på rasten.',
      'Vad hände sen?',
      'Hon sa något elakt.',
      'Sen gick jag hem.',
    ]);
  await expect(
    first.chat.messages.getByRole('listitem').filter({ hasText: 'Hon sa något elakt.' }),
  ).toHaveCount(1);

  await counsellor.resolve(conversationId);
  await first.chat.expectEnded();
  const closed = first.chat.page.getByRole('dialog', { name: 'Chatt avslutad' });
  await expect(closed).toContainText(
    'Det verkar som att chatten har avslutats eller som att vi fått tekniska problem.',
  );
  await closed.getByRole('button', { name: 'OK' }).click();
  await expect(first.chat.input).toHaveAttribute('placeholder', 'Chatten är avslutad');
  await first.chat.close();
  await expect(first.chat.dialog).toBeHidden();
  // SPEC §9: one chat of at most 45 minutes a day; the start page says so and offers mail instead.
  await expect(first.chat.page.getByText('Du har redan chattat idag.', { exact: false })).toBeVisible();
  await expect(first.chat.startButton).toBeDisabled();

  await second.chat.leaveQueue();
  await second.chat.expectEnded();
  await first.context.close();
  await second.context.close();
});

test('a child leaves the queue and the chat is cancelled on the server', async ({ page, request }) => {
  const counsellor = new Counsellor(request);
  await counsellor.logIn();
  const chat = new ChildChatPage(page);
  // (The assistant minimised by an opening chat, SPEC §4, is proven in e2e/assistent/: Barn has none.)
  await chat.logIn(await registerChild(request, 'lamnar'));
  await chat.startChat();
  await chat.expectInQueue();
  const mine = (await counsellor.queue()).filter((q) => q.systemType === 'chat').at(-1);
  expect(mine).toBeDefined();

  await chat.leaveQueue();
  await expect(chat.dialog.getByRole('button', { name: 'Lämnar kön' })).toBeVisible();
  await chat.expectEnded();
  // Left by the child: no 'unexpected cancel' notice and no closed modal.
  await expect(chat.messages).not.toContainText('du står inte längre i kön');
  await expect(page.getByRole('dialog', { name: 'Chatt avslutad' })).toHaveCount(0);
  expect((await counsellor.queue()).map((q) => q.id)).not.toContain(mine!.id);

  await chat.close();
  await expect(chat.startButton).toBeEnabled();
});

test('logging out with a chat in the queue asks first, then ends the chat', async ({ page, request }) => {
  const counsellor = new Counsellor(request);
  await counsellor.logIn();
  const chat = new ChildChatPage(page);
  await chat.logIn(await registerChild(request, 'utlogg'));
  await chat.startChat();
  await chat.expectInQueue();
  const mine = (await counsellor.queue()).filter((q) => q.systemType === 'chat').at(-1);
  await chat.minimize();
  await expect(chat.minimizedBar).toBeVisible();

  await chat.logoutButton.click();
  const confirm = page.getByRole('dialog', { name: 'Bekräfta' });
  await expect(confirm).toContainText('Är du säker på att du vill logga ut och avsluta chatten?');
  await confirm.getByRole('button', { name: 'Ja, avsluta chatt och logga ut' }).click();
  await expect(page).toHaveURL(/\/utloggad$/);
  expect((await counsellor.queue()).map((q) => q.id)).not.toContain(mine!.id);
});

test('a child ends an active chat and it is resolved', async ({ page, request }) => {
  const counsellor = new Counsellor(request);
  await counsellor.logIn();
  const chat = new ChildChatPage(page);
  await chat.logIn(await registerChild(request, 'avslutar'));
  await chat.startChat();
  await chat.expectInQueue();
  const mine = (await counsellor.queue()).filter((q) => q.systemType === 'chat').at(-1)!;
  await counsellor.accept(mine.id);
  await counsellor.write(mine.id, 'Hej, vad vill du prata om?');
  await chat.expectActive();

  await chat.endChat();
  const ended = page.getByRole('dialog', { name: 'Avslutad' });
  await expect(ended).toContainText('chatten är avslutad');
  await ended.getByRole('button', { name: 'OK' }).click();
  await chat.expectEnded();
  // The child ended it: no 'Chatt avslutad' (technical problems) modal.
  await expect(page.getByRole('dialog', { name: 'Chatt avslutad' })).toHaveCount(0);
  const mineNow = (await counsellor.get<{ value: { id: number; state: string }[] }>('/conversations')).value;
  expect(mineNow.find((c) => c.id === mine.id)?.state).toBe('Resolved');
});

test("the counsellor's first words come with the live chat, never in the queue's window", async ({
  page,
  request,
}) => {
  const counsellor = new Counsellor(request);
  await counsellor.logIn();
  const chat = new ChildChatPage(page);
  await chat.logIn(await registerChild(request, 'forsta'));
  await chat.startChat();
  await chat.expectInQueue();
  const mine = (await counsellor.queue()).filter((q) => q.systemType === 'chat').at(-1)!;
  const words = 'Hej! Här är Kim, kurator.';
  await page.evaluate(watchFirstWords, words);

  // Accepted and answered at once: the chat's new state is fetched within the second after the
  // accept's (SPEC §7's throttle), the message comes with its hub event.
  await counsellor.accept(mine.id);
  await counsellor.write(mine.id, words);
  await chat.expectMessage(words);
  await chat.expectActive();
  await expect(chat.messages).toContainText('Du har nu kopplats fram till en kurator');
  await expect(chat.dialog.getByRole('button', { name: 'Avsluta', exact: true })).toBeVisible();
  expect(await page.evaluate(() => window.__mixedFrames)).toEqual([]);
});
