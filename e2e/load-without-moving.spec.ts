import { expect, test } from './support/test.ts';
import { layoutShifts, recordLayoutShifts } from './support/layout-shifts.ts';

// Lighthouse's phone: nothing on the start page moves while the app takes over the first HTML's
// neutral screen and draws the signed-out page. The page-wide rules (the body's margin, font and line
// height) come with the first stylesheet, not with the app's code.
test.use({ viewport: { width: 412, height: 823 } });

test('the start page does not move while the app loads', async ({ page }) => {
  await recordLayoutShifts(page);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Stödlinjen' })).toBeVisible();
  await expect(page.getByRole('main').getByRole('button', { name: 'Logga in' })).toBeVisible();
  await expect(page.getByText('© 2024 Stödlinjen')).toBeAttached();
  const { score, shifts } = await layoutShifts(page);
  expect(score, JSON.stringify(shifts)).toBe(0);
});
