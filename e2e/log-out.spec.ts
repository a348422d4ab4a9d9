import { expect, test } from './support/test.ts';
import { DEMO_USER } from '../harness/page-models/app-page.ts';
import { LoggedOutPage } from '../harness/page-models/logged-out-page.ts';
import { MyPagesPage } from '../harness/page-models/my-pages-page.ts';
import { StartPage } from '../harness/page-models/start-page.ts';

test('a user logs out and lands on the logged-out page', async ({ page }) => {
  const start = new StartPage(page);
  await start.goto();
  await (await start.openLoginModal()).logIn(DEMO_USER.username, DEMO_USER.password);
  await expect(start.logoutButton).toBeVisible();

  await start.logOut();

  const loggedOut = new LoggedOutPage(page);
  await expect(page).toHaveURL(/\/utloggad$/);
  await expect(loggedOut.heading).toBeVisible();
  await expect(loggedOut.loginButton).toBeVisible();
});

test('logging out in one tab sends the other tab from my pages to the logged-out page', async ({
  context,
}) => {
  const first = await context.newPage();
  const start = new StartPage(first);
  await start.goto();
  await (await start.openLoginModal()).logIn(DEMO_USER.username, DEMO_USER.password);
  await expect(start.logoutButton).toBeVisible();
  const myPages = new MyPagesPage(first);
  await myPages.goto();
  await expect(myPages.heading).toBeVisible();

  const second = new StartPage(await context.newPage());
  await second.goto();
  await expect(second.logoutButton).toBeVisible();
  await second.logOut();

  await expect(first).toHaveURL(/\/utloggad$/);
});

test('after logging in again from the logged-out page the user goes to /start', async ({ page }) => {
  const loggedOut = new LoggedOutPage(page);
  await loggedOut.goto();
  await loggedOut.loginForm.logIn(DEMO_USER.username, DEMO_USER.password);
  await expect(page).toHaveURL(/\/start$/);
  await expect(loggedOut.logoutButton).toBeVisible();
});

test('an expired session is explained on the logged-out page', async ({ page }) => {
  const loggedOut = new LoggedOutPage(page);
  await loggedOut.goto('?error=session_expired');
  await expect(loggedOut.sessionExpiredText).toBeVisible();
});

test('logging out clears storage and cookies, except the assistant’s', async ({ page, context }) => {
  const start = new StartPage(page);
  await start.goto();
  await (await start.openLoginModal()).logIn(DEMO_USER.username, DEMO_USER.password);
  await expect(start.logoutButton).toBeVisible();
  await page.evaluate(() => {
    localStorage.setItem('left-behind', '1');
    sessionStorage.setItem('left-behind', '1');
    document.cookie = 'web_tracking=1; path=/';
    document.cookie = 'web_assistant-state=Minimized; path=/';
  });

  await start.logOut();
  await expect(page).toHaveURL(/\/utloggad$/);

  // Every tab clears its own storage when it sees the session end, a moment after the navigation.
  await expect.poll(() => page.evaluate(() => [localStorage.length, sessionStorage.length])).toEqual([0, 0]);
  await expect
    .poll(async () => (await context.cookies()).map((c) => c.name))
    .toEqual(['web_assistant-state']);
});
