import { expect, test } from '@playwright/test';
import { GroupStartPage } from '../page-models/group-start-page.ts';
import { MeetingDetailPage } from '../page-models/meeting-detail-page.ts';

test('a participant hands in homework, sees it listed and deletes it', async ({ page }) => {
  const start = new GroupStartPage(page);
  await start.logIn();
  await start
    .cards(start.upcoming)
    .first()
    .getByRole('link', { name: /^Mer information/ })
    .click();

  const detail = new MeetingDetailPage(page);
  await detail.tasks.click();
  await expect(detail.main.getByText(/^Max 10 MB per fil och 50 MB totalt\./)).toBeVisible();
  await expect(detail.main.getByText('Du har inte skickat in några filer.')).toBeVisible();

  await detail.main.locator('input[type=file]').setInputFiles({
    name: 'mina-tankar.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('Det här är min uppgift.\n'),
  });
  await expect(page.getByRole('status').getByText('Uppgiften har skickats in.')).toBeVisible();
  await expect(page.getByRole('status').getByText('Information')).toBeVisible();
  const file = detail.main.getByRole('button', { name: /^mina-tankar\.txt/ });
  await expect(file).toBeVisible();
  await expect(detail.main.locator('input[type=file]')).toHaveValue('');

  await detail.main.getByRole('button', { name: 'Ta bort mina-tankar.txt' }).click();
  await page.getByRole('dialog', { name: 'Bekräfta' }).getByRole('button', { name: 'Ja' }).click();
  await expect(file).toHaveCount(0);
  await expect(detail.main.getByText('Du har inte skickat in några filer.')).toBeVisible();
});
