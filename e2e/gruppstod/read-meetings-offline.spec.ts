import { expect, test } from '../support/test.ts';
import { GroupStartPage } from '../../harness/page-models/group-start-page.ts';
import { MeetingDetailPage } from '../../harness/page-models/meeting-detail-page.ts';
import { runAsProductionApp } from '../support/installed-app.ts';

test('a participant reloads the meeting detail offline and still sees the meeting and the list', async ({
  page,
  context,
}) => {
  await runAsProductionApp(page);

  const start = new GroupStartPage(page);
  await start.logIn();
  await expect(start.cards(start.upcoming).first()).toBeVisible();
  await start.openFirstUpcoming();
  const detail = new MeetingDetailPage(page);
  await expect(detail.title).toHaveText('Träff 4: Familjen');
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

  await context.setOffline(true);
  const reloaded = await page.reload();
  expect(reloaded?.fromServiceWorker()).toBe(true);
  await expect(detail.title).toHaveText('Träff 4: Familjen');
  await expect(detail.badge('Kommande')).toBeVisible();

  await page
    .getByRole('banner')
    .getByRole('link', { name: /startsidan/ })
    .click();
  await expect(start.inProgress).toBeVisible();
  await expect(start.cards(start.upcoming)).toHaveCount(2);
  await context.setOffline(false);
  await page.unrouteAll({ behavior: 'wait' });
});
