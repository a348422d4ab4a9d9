import { expect, test } from './support/test.ts';
import { DEMO_USER } from '../harness/page-models/app-page.ts';
import { MyPagesPage } from '../harness/page-models/my-pages-page.ts';
import { StartPage } from '../harness/page-models/start-page.ts';
import { runAsProductionApp } from './support/installed-app.ts';

test('a signed-in user reloads my pages while offline and still sees the shell and their data', async ({
  page,
  context,
}) => {
  // Installing the service worker precaches every page's chunk; on a busy machine that takes a while.
  test.setTimeout(60_000);
  await runAsProductionApp(page);

  const start = new StartPage(page);
  await start.goto();
  await (await start.openLoginModal()).logIn(DEMO_USER.username, DEMO_USER.password);
  await expect(start.logoutButton).toBeVisible();
  const myPages = new MyPagesPage(page);
  await myPages.goto();
  await expect(myPages.username).toHaveText('demo');
  // The service worker active (its precache complete), not this document controlled: a worker that
  // activates while `goto` above is under way claims the page that is going and never the one that
  // comes, which stays uncontrolled until its next load. That next load (the reload below) goes
  // through the active worker either way.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });

  await context.setOffline(true);
  const reloaded = await page.reload();
  expect(reloaded?.fromServiceWorker()).toBe(true);
  await expect(myPages.heading).toBeVisible();
  await expect(myPages.username).toHaveText('demo');
  await expect(start.logoutButton).toBeVisible();
  await context.setOffline(false);
  await page.unrouteAll({ behavior: 'wait' });
});
