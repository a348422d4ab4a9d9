import { expect, test } from '../support/test.ts';
import { GroupStartPage } from '../../harness/page-models/group-start-page.ts';
import { LoginPage } from '../../harness/page-models/login-page.ts';
import { MeetingDetailPage } from '../../harness/page-models/meeting-detail-page.ts';
import { violationsAtBothWidths } from '../support/accessibility.ts';

// Every screen of the group-support app, each checked with axe at 320 px and at 1280 px. The group
// leader's console screens are checked in lead-a-group-meeting-from-the-console.spec.ts.

test('the signed-out group start page and the login modal have no accessibility violations', async ({
  page,
}) => {
  const start = new GroupStartPage(page);
  await start.goto();
  const inline = new LoginPage(start.main);
  await inline.pressSubmit();
  await expect(inline.alerts.first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Lämna sidan' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Är det akut? Ring 112.' })).toBeVisible();
  const found = await violationsAtBothWidths(page);

  const modal = await start.openLoginModal();
  await modal.pressSubmit();
  await expect(modal.alerts.first()).toBeVisible();
  found.push(...(await violationsAtBothWidths(page)));
  expect(found).toEqual([]);
});

test('the meeting list and the meeting detail with its tasks have no accessibility violations', async ({
  page,
}) => {
  const start = new GroupStartPage(page);
  await start.logIn();
  await expect(start.inProgress).toBeVisible();
  await start.cards(start.inProgress).first().locator('summary').click();
  const found = await violationsAtBothWidths(page);

  await start.openFirstUpcoming();
  const detail = new MeetingDetailPage(page);
  await detail.openEverySection();
  found.push(...(await violationsAtBothWidths(page)));
  expect(found).toEqual([]);
});

test('the group chat window, live and ended, and its history have no accessibility violations', async ({
  page,
  groupLeader: leader,
}) => {
  // Six axe runs (three screens, two widths each) on top of a live chat: more than the usual time.
  test.slow();
  // The test's own meeting, removed by the fixture at the end: the demo meetings stay as the other
  // specs expect.
  const subject = `Tillgänglig träff ${Date.now().toString(36)}`;
  const meetingId = await leader.createMeeting(subject);
  await leader.startMeeting(meetingId);
  await leader.write(meetingId, 'Välkomna allihop!');
  const start = new GroupStartPage(page);
  await start.logIn();
  const detail = await MeetingDetailPage.open(page, meetingId, subject);
  const chat = await detail.openChat(subject);
  await expect(chat.message('Välkomna allihop!')).toBeVisible({ timeout: 15_000 });
  await chat.send('Hej allihop');
  await expect(chat.dialog.getByRole('button', { name: 'Lämna sidan' })).toBeVisible();
  const found = await violationsAtBothWidths(page);

  await leader.endMeeting(meetingId);
  await chat.expectEnded({ timeout: 15_000 });
  found.push(...(await violationsAtBothWidths(page)));
  await chat.closeButton.click();
  await detail.showHistoryButton.click();
  await expect(page.getByRole('dialog', { name: subject }).getByText('Hej allihop')).toBeVisible();
  found.push(...(await violationsAtBothWidths(page)));
  expect(found).toEqual([]);
});
