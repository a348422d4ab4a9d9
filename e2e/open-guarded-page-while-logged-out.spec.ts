import { expect, test } from './support/test.ts';
import { DEMO_USER } from '../harness/page-models/app-page.ts';
import { MyPagesPage } from '../harness/page-models/my-pages-page.ts';

test('a signed-out visitor opening my pages is asked to log in and then lands on my pages', async ({
  page,
}) => {
  const myPages = new MyPagesPage(page);
  await myPages.goto();

  await expect(page).toHaveURL(/\/\?promptLogin=true&redirectUrl=%2Fmina-sidor$/);
  await expect(myPages.loginDialog).toBeVisible();

  await myPages.modalLoginForm().logIn(DEMO_USER.username, DEMO_USER.password);

  await expect(page).toHaveURL(/\/mina-sidor$/);
  await expect(myPages.heading).toBeVisible();
  // The profile's username is the contact's name, which the demo seed capitalises.
  await expect(myPages.username).toHaveText(/^demo$/i);
});

test('closing the login prompt leaves the visitor on the start page', async ({ page }) => {
  const myPages = new MyPagesPage(page);
  await page.goto('/installningar');
  await expect(myPages.loginDialog).toBeVisible();

  await page.keyboard.press('Escape');

  await expect(myPages.loginDialog).toBeHidden();
  await expect(page).toHaveURL(/\/$/);
});
