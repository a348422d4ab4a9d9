import { expect, test } from './support/test.ts';
import { StartPage } from '../harness/page-models/start-page.ts';
import { registerChild } from '../harness/actors/child-account.ts';

// The login form's code is no part of the start page; it comes once the page is idle. A
// child who taps 'Logga in' before it is in sees the modal with a spinner, then the form, with the
// focus in its first field as always.
test('a login tapped before the form code is in opens the form with the focus in its first field', async ({
  page,
  request,
}) => {
  const child = await registerChild(request);
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/login-form-[\w-]{8}\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  const start = new StartPage(page);
  await start.goto();

  await start.loginButton.click();
  await expect(start.loginDialog.getByRole('status')).toHaveText('Laddar...');
  release();

  const form = start.modalLoginForm();
  await expect(form.username).toBeFocused();
  await page.keyboard.type(child.username);
  await form.password.fill(child.password);
  await form.submit.click();
  await expect(start.logoutButton).toBeVisible();
});
