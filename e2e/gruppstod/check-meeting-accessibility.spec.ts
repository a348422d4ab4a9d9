import { expect, test } from '../support/test.ts';
import { GroupStartPage } from '../page-models/group-start-page.ts';
import { MeetingDetailPage } from '../page-models/meeting-detail-page.ts';
import { accessibilityViolations } from '../support/accessibility.ts';

for (const width of [320, 1280]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });

    test('the meeting list has no accessibility violations', async ({ page }) => {
      const start = new GroupStartPage(page);
      await start.logIn();
      await expect(start.inProgress).toBeVisible();
      await start.cards(start.inProgress).first().locator('summary').click();
      expect(await accessibilityViolations(page)).toEqual([]);
    });

    test('the meeting detail has no accessibility violations', async ({ page }) => {
      const start = new GroupStartPage(page);
      await start.logIn();
      await start.cards(start.upcoming).first().getByRole('link').click();
      const detail = new MeetingDetailPage(page);
      await expect(detail.tasks).toBeVisible();
      await detail.tasks.click();
      await detail.participants.click();
      expect(await accessibilityViolations(page)).toEqual([]);
    });
  });
}
