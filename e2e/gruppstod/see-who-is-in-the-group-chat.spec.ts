import { expect, test, type Browser } from '@playwright/test';
import { GroupLeader } from '../actors/group-leader.ts';
import { GroupStartPage } from '../page-models/group-start-page.ts';
import { MeetingDetailPage } from '../page-models/meeting-detail-page.ts';

/** A participant of the demo group, signed in with their code, with the meeting's chat open. */
async function inTheChat(browser: Browser, code: string, subject: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const start = new GroupStartPage(page);
  await start.logIn(code);
  await start
    .cards(start.inProgress)
    .filter({ hasText: subject })
    .getByRole('link', { name: /^Gå med/ })
    .click();
  const detail = new MeetingDetailPage(page);
  await expect(detail.title).toHaveText(subject);
  // 'Deltagare' is opened first: the chat window then lies over it.
  await detail.participants.click();
  await detail.openChat(subject);
  return { context, detail };
}

test('after three minutes in the group chat, the participant list still shows who is there', async ({
  browser,
  request,
}) => {
  // SPEC §4: Connected within 2 minutes of a connect or ping, Away within 5. Three minutes is past the
  // point where a list that never refreshed showed everyone, oneself included, as 'Borta'.
  test.setTimeout(300_000);
  const leader = new GroupLeader(request);
  await leader.logIn();
  const subject = `Närvaro ${Date.now().toString(36)}`;
  const meetingId = await leader.createMeeting(subject);
  await leader.startMeeting(meetingId);

  const first = await inTheChat(browser, 'DEMOKOD-0002', subject);
  const second = await inTheChat(browser, 'DEMOKOD-0003', subject);
  const list = first.detail.main
    .locator('details', { has: first.detail.page.locator('summary', { hasText: 'Deltagare' }) })
    .getByRole('listitem');
  await expect(list.filter({ hasText: '(Ansluten)' })).toHaveCount(2, { timeout: 15_000 });

  // The time itself is the scenario: no event says that three minutes have passed.
  await first.detail.page.waitForTimeout(180_000);
  await expect(list).toHaveCount(2);
  await expect(list.filter({ hasText: '(Ansluten)' })).toHaveCount(2);

  // The other participant leaves the chat: their dot follows at once (the hub's disconnect event).
  await second.detail.chatWindow(subject).leave();
  await expect(list.filter({ hasText: '(Ansluten)' })).toHaveCount(1, { timeout: 15_000 });
  await expect(list.filter({ hasText: '(Frånkopplad)' })).toHaveCount(1);
  await second.context.close();
  await first.context.close();
  await leader.endMeeting(meetingId);
  await leader.deleteMeeting(meetingId);
});
