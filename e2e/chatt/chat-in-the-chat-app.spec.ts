import { expect, test } from '../support/test.ts';
import { registerChild } from '../../harness/actors/child-account.ts';
import { Counsellor } from '../../harness/actors/counsellor.ts';
import { ChildChatPage } from '../../harness/page-models/child-chat-page.ts';
import { violationsAtBothWidths } from '../support/accessibility.ts';

/**
 * The chat variant (Chatt): the child app whose registration link says style=chat and whose queue
 * bot leaves out the queue explanation (SPEC §2, §4 'non-chat mode only').
 */
test('a visitor is offered an account in the chat style', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Skapa konto' })).toHaveAttribute(
    'href',
    '/skapa-konto?style=chat',
  );
  expect(await violationsAtBothWidths(page)).toEqual([]);
});

test('a child queues without the queue explanation and chats with a counsellor', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const counsellor = new Counsellor(request);
  await counsellor.logIn();
  await counsellor.emptyQueue();
  const chat = new ChildChatPage(page);
  await chat.logIn(await registerChild(request, 'chatt'));

  await chat.startChat();
  await chat.expectInQueue(1);
  // The bot's messages come one by one; the place in the queue comes last.
  await expect(chat.messages).toContainText('Du har plats 1 i kön', { timeout: 20_000 });
  await expect(chat.messages).toContainText('Hej och välkommen till Stödlinjens chatt!');
  await expect(chat.messages).toContainText('Kom tillbaka hit minst var 5:e minut');
  await expect(chat.messages).not.toContainText('Just nu pratar alla våra kuratorer med andra barn.');

  const id = await counsellor.waitingChat();
  await counsellor.accept(id);
  await counsellor.write(id, 'Hej! Vad vill du prata om idag?');
  await chat.expectMessage('Hej! Vad vill du prata om idag?');
  await chat.expectActive();
  await chat.send('Om skolan.');
  await expect(chat.message('Om skolan.')).toContainText('Skickat');
  await expect
    .poll(async () => (await counsellor.messages(id)).map((m) => m.message))
    .toContain('Om skolan.');
});
