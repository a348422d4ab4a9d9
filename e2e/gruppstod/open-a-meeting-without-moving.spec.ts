import { expect, test } from '../support/test.ts';
import { GroupStartPage } from '../../harness/page-models/group-start-page.ts';
import { MeetingDetailPage } from '../../harness/page-models/meeting-detail-page.ts';
import { layoutShifts, recordLayoutShifts } from '../support/layout-shifts.ts';

// Lighthouse's phone: a meeting page opened from its address fills in part by part (the first HTML's
// neutral screen, then the meeting, its sections, the chat's state), and nothing in view moves
// meanwhile: the footer stays below the first screen instead of being pushed down.
test.use({ viewport: { width: 412, height: 823 } });

test('a meeting page opened from its address does not move while it fills in', async ({ page }) => {
  const start = new GroupStartPage(page);
  await start.logIn();
  await start.openFirstUpcoming();
  const detail = new MeetingDetailPage(page);
  await expect(detail.title).toBeVisible();

  await recordLayoutShifts(page);
  await page.reload();
  await expect(detail.title).toBeVisible();
  await expect(detail.tasks).toBeVisible();
  await expect(detail.participants).toBeVisible();
  await expect(page.getByText('© 2024 Stödlinjen')).toBeAttached();
  const { score, shifts } = await layoutShifts(page);
  expect(score, JSON.stringify(shifts)).toBe(0);
});
