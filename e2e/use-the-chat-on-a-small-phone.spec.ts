import { expect, test } from './support/test.ts';
import { registerChild } from '../harness/actors/child-account.ts';
import { Counsellor } from '../harness/actors/counsellor.ts';
import { ChildChatPage } from '../harness/page-models/child-chat-page.ts';
import {
  PHONE_SIZES,
  closeKeyboard,
  expectInViewAndReachable,
  expectNoSidewaysScroll,
  keepScreenshot,
  openKeyboard,
} from './support/small-screens.ts';

// On a small phone the chat window keeps its text box and 'Skicka' on screen, in the queue and live,
// with the keyboard open (half the screen gone): the queue's blocks (the 112 line, 'Andas med mig',
// the notice question, the pre-submit question) scroll between the header and the input instead of
// pushing the writing below the screen.
for (const size of PHONE_SIZES) {
  test(`at ${size.width}x${size.height} the text box and Skicka stay on screen, keyboard open, in the queue and live`, async ({
    browser,
    request,
  }, testInfo) => {
    test.setTimeout(90_000);
    const counsellor = new Counsellor(request);
    await counsellor.logIn();
    await counsellor.emptyQueue();
    const context = await browser.newContext({ viewport: size, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    const chat = new ChildChatPage(page);
    await chat.logIn(await registerChild(request, `telefon${size.width}`));
    await chat.startChat();
    await chat.expectInQueue();
    const send = chat.dialog.getByRole('button', { name: 'Skicka' });

    // In the queue, every block shown: the writing is on screen, and the page never scrolls sideways.
    const yes = chat.dialog.getByRole('button', { name: 'Ja, det vill jag' });
    await expect(yes).toBeAttached({ timeout: 20_000 });
    await expectInViewAndReachable(chat.input, 'the text box in the queue');
    await expectInViewAndReachable(send, "'Skicka' in the queue");
    await expectNoSidewaysScroll(page);
    await keepScreenshot(page, testInfo, `queue-${size.width}x${size.height}.png`);

    // The child chooses to describe their worry and the keyboard opens.
    await yes.tap();
    await chat.input.tap();
    await openKeyboard(page, size);
    await expect(chat.input).toBeFocused();
    await expectInViewAndReachable(chat.input, 'the text box in the queue, keyboard open');
    await expectInViewAndReachable(send, "'Skicka' in the queue, keyboard open");
    await expectNoSidewaysScroll(page);
    await keepScreenshot(page, testInfo, `queue-keyboard-${size.width}x${size.height}.png`);
    await chat.input.fill('Jag vill prata om skolan');
    await send.tap();
    await expect(chat.dialog.getByText('Ditt meddelande har skickats')).toBeVisible();
    await closeKeyboard(page, size);

    // Live: the counsellor answers; the child writes back with the keyboard open.
    const conversationId = await counsellor.waitingChat();
    await counsellor.accept(conversationId);
    await counsellor.write(conversationId, 'Hej! Jag heter Kim. Berätta mer.');
    await chat.expectActive();
    await chat.expectMessage('Hej! Jag heter Kim. Berätta mer.');
    await chat.input.tap();
    await openKeyboard(page, size);
    await expectInViewAndReachable(chat.input, 'the text box live, keyboard open');
    await expectInViewAndReachable(send, "'Skicka' live, keyboard open");
    await expectInViewAndReachable(chat.message('Hej! Jag heter Kim. Berätta mer.'), 'the newest message');
    await expectNoSidewaysScroll(page);
    await keepScreenshot(page, testInfo, `live-keyboard-${size.width}x${size.height}.png`);
    await chat.input.fill('Det är jobbigt');
    await send.tap();
    await chat.expectMessage('Det är jobbigt');
    await expect
      .poll(async () => (await counsellor.messages(conversationId)).map((m) => m.message))
      .toContain('Det är jobbigt');

    await closeKeyboard(page, size);
    await chat.endChat();
    await context.close();
  });
}
