import { expect, test } from '@playwright/test';
import { GroupLeader } from '../actors/group-leader.ts';
import { GroupStartPage } from '../page-models/group-start-page.ts';
import { MeetingDetailPage } from '../page-models/meeting-detail-page.ts';
import { accessibilityViolations } from '../support/accessibility.ts';

test('a participant waits for the group chat, chats with the leader and sees it end', async ({
  page,
  request,
}) => {
  // The spec's own meeting: ending it leaves the demo meeting in progress for the other specs.
  const leader = new GroupLeader(request);
  await leader.logIn();
  const subject = `Gruppchatt ${Date.now().toString(36)}`;
  const meetingId = await leader.createMeeting(subject);

  const start = new GroupStartPage(page);
  await start.logIn();
  await start
    .cards(start.upcoming)
    .filter({ hasText: subject })
    .getByRole('link', { name: /^Mer information/ })
    .click();
  const detail = new MeetingDetailPage(page);
  await expect(detail.title).toHaveText(subject);

  await leader.startMeeting(meetingId);
  await expect(detail.badge('Chatten börjar strax')).toBeVisible({ timeout: 15_000 });
  await detail.openChatButton.click();
  const chat = detail.chatWindow;
  await expect(chat.getByRole('status').filter({ hasText: 'Chatten börjar strax' })).toBeVisible();
  await expect(chat.getByRole('textbox', { name: 'Meddelande' })).toBeDisabled();

  await leader.write(meetingId, 'Välkomna! Läs mer på www.example.se');
  await expect(chat.getByText('Gruppchatten har startat')).toBeVisible({ timeout: 15_000 });
  await expect(chat.getByText('Gruppledare Sara')).toBeVisible();
  await expect(chat.getByRole('link', { name: 'www.example.se' })).toHaveAttribute(
    'href',
    'http://www.example.se',
  );

  const input = chat.getByRole('textbox', { name: 'Meddelande' });
  await expect(input).toBeEnabled();
  await input.fill('Hej allihop');
  await expect(chat.getByText('Antal tecken: 11 av 700')).toBeVisible();
  await chat.getByRole('button', { name: 'Skicka', exact: true }).click();
  await expect(chat.getByRole('list', { name: 'Meddelanden' }).getByText('Hej allihop')).toBeVisible();
  await expect(chat.getByText('Skickat', { exact: true })).toBeVisible({ timeout: 15_000 });

  expect(await accessibilityViolations(page)).toEqual([]);

  await chat.getByRole('button', { name: 'Minimera chatten' }).click();
  await expect(page.getByRole('button', { name: 'Aktiv chatt' })).toBeVisible();
  await leader.write(meetingId, 'Hur mår ni idag?');
  await expect(page.getByRole('button', { name: 'Nya meddelanden!' })).toBeVisible({ timeout: 15_000 });
  await page.getByRole('button', { name: 'Nya meddelanden!' }).click();
  await expect(chat.getByText('Hur mår ni idag?')).toBeVisible();

  await chat.getByRole('button', { name: 'Lämna chatten' }).click();
  const confirm = page.getByRole('dialog', { name: 'Bekräfta' });
  await expect(confirm).toContainText('Är du säker på att du vill lämna chatten?');
  await confirm.getByRole('button', { name: 'Avbryt' }).click();

  await leader.endMeeting(meetingId);
  await expect(chat.getByText('Chatten är avslutad').first()).toBeVisible({ timeout: 15_000 });
  await expect(input).toBeDisabled();
  await chat.getByRole('button', { name: 'Stäng' }).click();
  await expect(detail.main.getByRole('button', { name: 'Se chatthistorik' })).toBeVisible();
  await detail.main.getByRole('button', { name: 'Se chatthistorik' }).click();
  const history = page.getByRole('dialog');
  await expect(history.getByText('Hur mår ni idag?')).toBeVisible();
  await expect(history.getByText(/^Chatt från \d{4}-\d{2}-\d{2}$/)).toBeVisible();

  // Participants see the demo group's meetings as before this spec.
  await leader.deleteMeeting(meetingId);
});
