import { expect, test } from './support/test.ts';
import { DEMO_USER } from '../harness/page-models/app-page.ts';
import { logInChild } from '../harness/page-models/child-login.ts';
import { MyPagesPage } from '../harness/page-models/my-pages-page.ts';

test('a signed-in child who opens a group link in the child app stays signed in on the start page', async ({
  page,
}) => {
  await logInChild(page, DEMO_USER);
  const myPages = new MyPagesPage(page);

  // An old link or a typed address: this variant has no groups, so no group route either.
  await page.goto('/tillfalle/1');

  await expect(page).toHaveURL(/\/$/);
  await expect(myPages.logoutButton).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Åtkomst nekad' })).toHaveCount(0);
  await expect(page.getByText('Du har inte längre åtkomst till gruppen')).toHaveCount(0);
  await myPages.goto();
  await expect(myPages.heading).toBeVisible();
});
