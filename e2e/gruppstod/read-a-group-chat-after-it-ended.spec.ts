import { expect, test } from '../support/test.ts';
import { GroupStartPage } from '../../harness/page-models/group-start-page.ts';
import { MeetingDetailPage } from '../../harness/page-models/meeting-detail-page.ts';
import { MyConversationsPage } from '../../harness/page-models/my-conversations.ts';

/**
 * A participant writes in a group chat, the leader ends the meeting, and the participant signs in
 * on a device that never saw the chat: what it offers comes from the server's answer, not from what
 * the device happened to load before.
 */
test('a participant who signs in after the meeting finds its group chat in the history', async ({
  browser,
  page,
  groupLeader: leader,
}) => {
  const subject = `Efteråt ${Date.now().toString(36)}`;
  const meetingId = await leader.createMeeting(subject);
  await leader.startMeeting(meetingId);
  await leader.write(meetingId, 'Välkomna till träffen');

  const start = new GroupStartPage(page);
  await start.logIn();
  const detail = await MeetingDetailPage.open(page, meetingId, subject);
  const chat = await detail.openChat(subject);
  await expect(chat.input).toBeEnabled({ timeout: 15_000 });
  await chat.input.fill('Jag var med i dag');
  await chat.sendButton.click();
  await expect(chat.message('Jag var med i dag')).toContainText('Skickat', { timeout: 15_000 });
  await leader.endMeeting(meetingId);
  await chat.expectEnded({ timeout: 15_000 });

  // Another device: nothing of the meeting or its chat is stored there.
  const fresh = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  try {
    const other = await fresh.newPage();
    await new GroupStartPage(other).logIn();
    await other.goto(`/tillfalle/${meetingId}`);
    const again = new MeetingDetailPage(other);
    await expect(again.title).toHaveText(subject);
    await expect(again.showHistoryButton).toBeVisible({ timeout: 15_000 });

    const myPages = new MyConversationsPage(other);
    await myPages.goto();
    await expect(myPages.history.getByText('Du har inga avslutade chattar.')).toHaveCount(0);
    await expect(myPages.historyItems.first()).toBeVisible({ timeout: 15_000 });
    await myPages.openNewestChat();
    const history = other.getByRole('dialog', { name: subject });
    await expect(history.getByText('Välkomna till träffen')).toBeVisible();
    await expect(history.getByRole('listitem').filter({ hasText: 'Jag var med i dag' })).toContainText('Du');
  } finally {
    await fresh.close();
  }
});
