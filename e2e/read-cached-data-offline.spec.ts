import { expect, test } from '@playwright/test';
import { DEMO_USER } from './page-models/app-page.ts';
import { MyPagesPage } from './page-models/my-pages-page.ts';
import { StartPage } from './page-models/start-page.ts';

test('a signed-in user reloads my pages while offline and still sees the shell and their data', async ({
  page,
  context,
}) => {
  // The e2e server is not in production, so this page is told it is, and registers at once.
  await page.addInitScript(() => {
    window.__PWA_TEST_DELAY_MS__ = 0;
  });
  await page.route('**/config.json', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), production: true } });
  });

  const start = new StartPage(page);
  await start.goto();
  await (await start.openLoginModal()).logIn(DEMO_USER.username, DEMO_USER.password);
  await expect(start.logoutButton).toBeVisible();
  const myPages = new MyPagesPage(page);
  await myPages.goto();
  await expect(myPages.username).toHaveText('Demo');
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

  await context.setOffline(true);
  const reloaded = await page.reload();
  expect(reloaded?.fromServiceWorker()).toBe(true);
  await expect(myPages.heading).toBeVisible();
  await expect(myPages.username).toHaveText('Demo');
  await expect(start.logoutButton).toBeVisible();
  await context.setOffline(false);
  await page.unrouteAll({ behavior: 'wait' });
});
