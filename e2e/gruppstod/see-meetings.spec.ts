import { expect, test } from '../support/test.ts';
import { GroupStartPage } from '../../harness/page-models/group-start-page.ts';
import { MeetingDetailPage } from '../../harness/page-models/meeting-detail-page.ts';

test('a participant sees the meetings in three sections and opens the one in progress', async ({ page }) => {
  const start = new GroupStartPage(page);
  await start.logIn();

  await expect(start.inProgress).toBeVisible();
  await expect(start.upcoming).toBeVisible();
  await expect(start.finished).toBeVisible();
  await expect(page.getByRole('link', { name: 'Är det akut? Ring 112.' })).toHaveAttribute('href', 'tel:112');

  const running = start.cards(start.inProgress);
  await expect(running).toHaveCount(1);
  await expect(running.first()).toContainText('Träff 3: Känslor och tankar');
  await expect(running.first()).toContainText(/Mötestid: \d{2}:\d{2}/);
  await expect(running.first().getByText('Pågående', { exact: true })).toBeVisible();

  const upcoming = start.cards(start.upcoming);
  await expect(upcoming).toHaveCount(2);
  await expect(upcoming.first()).toContainText('Träff 4: Familjen');
  // 'Later today' on the server can be tomorrow in the browser's time zone late in the evening.
  await expect(upcoming.first()).toContainText(
    /Mötestid: (Idag, kl \d{2}:\d{2}|\d{4}-\d{2}-\d{2} \d{2}:\d{2})/,
  );
  await expect(upcoming.nth(1)).toContainText(/Mötestid: \d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
  await expect(upcoming.first().getByRole('link', { name: /^Mer information/ })).toBeVisible();

  const finished = start.cards(start.finished);
  const completed = finished.filter({ hasText: 'Träff 2: Att prata om det svåra' });
  await expect(completed).toContainText(/Avslutad: \d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
  await expect(completed.getByRole('link', { name: /^Se historik/ })).toBeVisible();
  // A cancelled meeting says so, at the time it was planned for (our wording; SPEC names none).
  const cancelled = finished.filter({ hasText: 'Träff 6: Inställd träff' });
  await expect(cancelled).toContainText(/Inställd: \d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
  await expect(cancelled).not.toContainText('Avslutad');
  await expect(cancelled.getByRole('link', { name: /^Se historik/ })).toBeVisible();

  await running
    .first()
    .getByRole('link', { name: /^Gå med/ })
    .click();
  await expect(page).toHaveURL(/\/tillfalle\/\d+$/);

  const detail = new MeetingDetailPage(page);
  // The chat window may open by itself when the leader has started the chat; minimise it first.
  const chat = detail.chatWindow('Träff 3: Känslor och tankar');
  if (await chat.dialog.isVisible()) await chat.minimize();
  await expect(detail.title).toHaveText('Träff 3: Känslor och tankar');
  // 'Starttid: HH:mm' for a meeting of today; one that began before midnight shows its day too.
  const startLine = detail.main.getByText(/^Starttid: (\d{4}-\d{2}-\d{2} )?\d{2}:\d{2}$/);
  await expect(startLine).toBeVisible();
  const day = /^Starttid: (\d{4}-\d{2}-\d{2}) /.exec(await startLine.innerText())?.[1];
  if (day !== undefined) {
    const today = await page.evaluate(() => new Date().toLocaleDateString('sv-SE'));
    expect(day, 'a date is shown only for a meeting of another day').not.toBe(today);
  }
  await expect(detail.main.getByText(/^(Chatten börjar strax|Pågående)$/)).toBeVisible();
  await expect(detail.tasks).toBeVisible();
  await expect(detail.privateMessage).toContainText('Stödlinjen');
  await expect(detail.participants).toBeVisible();
});

test('the private message form validates its text', async ({ page }) => {
  const start = new GroupStartPage(page);
  await start.logIn();
  await start.openFirstUpcoming();

  const detail = new MeetingDetailPage(page);
  await expect(detail.badge('Kommande')).toBeVisible();
  await detail.privateMessage.click();
  const text = detail.main.getByLabel('Meddelande');
  await text.fill('x');
  await text.fill('');
  await expect(detail.main.getByRole('alert')).toHaveText('Text måste anges');
  await text.fill('a'.repeat(801));
  await expect(detail.main.getByRole('alert')).toHaveText('Max 800 tecken');
  await expect(detail.main.getByRole('button', { name: 'Skicka' })).toBeDisabled();
});

test('an unknown meeting says it was not found', async ({ page }) => {
  const start = new GroupStartPage(page);
  await start.logIn();
  await page.goto('/tillfalle/999999');
  await expect(page.getByRole('main')).toContainText(/Hittade inget grupptillfälle|Åtkomst nekad/);
});
