import { expect, test } from './support/test.ts';
import { LoggedOutPage } from '../harness/page-models/logged-out-page.ts';

test.use({ viewport: { width: 320, height: 240 } });

test('a new page starts at the top, and going back returns to where the user was', async ({ page }) => {
  const loggedOut = new LoggedOutPage(page);
  await loggedOut.goto();
  await loggedOut.loginForm.registerLink.scrollIntoViewIfNeeded();
  const position = await page.evaluate(() => window.scrollY);
  expect(position).toBeGreaterThan(0);

  await loggedOut.loginForm.registerLink.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Skapa konto' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);

  await page.goBack();
  await expect(loggedOut.heading).toBeAttached();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(position);
});
