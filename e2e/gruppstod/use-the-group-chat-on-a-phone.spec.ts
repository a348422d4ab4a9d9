import { GroupStartPage } from '../../harness/page-models/group-start-page.ts';
import {
  PHONE_SIZES,
  closeKeyboard,
  expectInViewAndReachable,
  expectNoSidewaysScroll,
  keepScreenshot,
  openKeyboard,
} from '../support/small-screens.ts';
import { expect, test } from '../support/test.ts';

// The group chat window on a phone, keyboard open: a text box wide enough to write in beside
// 'Skicka', 'Skicka med Enter' under it, and a long meeting title that leaves the header's buttons
// on screen.
test('on a phone the group chat keeps a wide text box, Skicka and the header buttons in view, keyboard open', async ({
  browser,
  groupLeader: leader,
}, testInfo) => {
  test.setTimeout(90_000);
  const subject = `Ett långt namn på en träff om hur man hanterar oro ${Date.now().toString(36)}`;
  const meetingId = await leader.createMeeting(subject);
  const context = await browser.newContext({ viewport: PHONE_SIZES[0], hasTouch: true, isMobile: true });
  const page = await context.newPage();
  const start = new GroupStartPage(page);
  await start.logIn();
  const detail = await start.openUpcoming(subject);
  await leader.startMeeting(meetingId);
  await expect(detail.badge('Chatten börjar strax')).toBeVisible({ timeout: 15_000 });
  const chat = await detail.openChat(subject);
  await leader.write(meetingId, 'Välkomna!');
  await expect(chat.input).toBeEnabled({ timeout: 15_000 });

  for (const size of PHONE_SIZES) {
    const at = `${size.width}x${size.height}`;
    await page.setViewportSize(size);
    await chat.input.tap();
    await openKeyboard(page, size);
    await expectInViewAndReachable(chat.input, `the text box at ${at}, keyboard open`);
    await expectInViewAndReachable(chat.sendButton, `'Skicka' at ${at}, keyboard open`);
    await expectInViewAndReachable(chat.minimizeButton, `'Minimera' at ${at}, keyboard open`);
    await expectInViewAndReachable(chat.leaveButton, `the leave button at ${at}, keyboard open`);
    const width = (await chat.input.boundingBox())!.width;
    expect(width, `the text box at ${at} is wide enough to write in`).toBeGreaterThan(size.width * 0.5);
    await expectNoSidewaysScroll(page);
    await keepScreenshot(page, testInfo, `group-chat-keyboard-${at}.png`);
    await chat.input.fill(`Hej från ${at}`);
    await chat.sendButton.tap();
    await expect(chat.message(`Hej från ${at}`)).toBeVisible();
    await closeKeyboard(page, size);
  }

  await leader.endMeeting(meetingId);
  await chat.expectEnded({ timeout: 15_000 });
  await context.close();
});
