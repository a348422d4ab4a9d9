import { expect, test } from '../support/test.ts';
import { GroupStartPage } from '../../harness/page-models/group-start-page.ts';
import { accessibilityViolations } from '../support/accessibility.ts';

test('a participant waits for the group chat, chats with the leader and sees it end', async ({
  page,
  groupLeader: leader,
}) => {
  // The spec's own meeting: ending it leaves the demo meeting in progress for the other specs.
  const subject = `Gruppchatt ${Date.now().toString(36)}`;
  const meetingId = await leader.createMeeting(subject);

  const start = new GroupStartPage(page);
  await start.logIn();
  const detail = await start.openUpcoming(subject);

  await leader.startMeeting(meetingId);
  await expect(detail.badge('Chatten börjar strax')).toBeVisible({ timeout: 15_000 });
  const chat = await detail.openChat(subject);
  await expect(chat.status).toHaveText('Chatten börjar strax');
  await expect(chat.input).toBeDisabled();

  await leader.write(meetingId, 'Välkomna! Läs mer på www.example.se');
  await expect(chat.message('Gruppchatten har startat')).toBeVisible({ timeout: 15_000 });
  await expect(chat.message('Välkomna!')).toContainText('Gruppledare Sara');
  await expect(chat.messages.getByRole('link', { name: 'www.example.se' })).toHaveAttribute(
    'href',
    'http://www.example.se',
  );

  await expect(chat.input).toBeEnabled();
  await chat.input.fill('Hej allihop');
  await expect(chat.counter).toHaveText('Antal tecken: 11 av 700');
  await chat.sendButton.click();
  await expect(chat.message('Hej allihop')).toBeVisible();
  await expect(chat.message('Hej allihop')).toContainText('Skickat', { timeout: 15_000 });

  expect(await accessibilityViolations(page)).toEqual([]);

  await chat.minimize();
  await expect(chat.minimizedBar).toHaveText('Aktiv chatt');
  await leader.write(meetingId, 'Hur mår ni idag?');
  await expect(chat.minimizedBar).toHaveText('Nya meddelanden!', { timeout: 15_000 });
  await chat.restore();
  await expect(chat.message('Hur mår ni idag?')).toBeVisible();

  await chat.leaveButton.click();
  // A running chat is closed down (SPEC §8's group wording); before it begins, it is left.
  await expect(chat.confirm).toContainText('Är du säker på att du vill stänga ner chatten?');
  await chat.confirm.getByRole('button', { name: 'Avbryt' }).click();
  await expect(chat.confirm).toBeHidden();
  await expect(chat.dialog).toBeVisible();

  await leader.endMeeting(meetingId);
  await chat.expectEnded({ timeout: 15_000 });
  await chat.closeButton.click();
  await expect(chat.dialog).toBeHidden();
  await detail.showHistoryButton.click();
  const history = page.getByRole('dialog', { name: subject });
  await expect(history.getByText('Hur mår ni idag?')).toBeVisible();
  await expect(history.getByText(/^Chatt från \d{4}-\d{2}-\d{2}$/)).toBeVisible();

  // Participants see the demo group's meetings as before this spec.
});
