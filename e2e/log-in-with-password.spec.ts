import { expect, test } from './support/test.ts';
import { DEMO_USER } from './page-models/app-page.ts';
import { StartPage } from './page-models/start-page.ts';

test('a user mistypes the password, is told so, and then logs in', async ({ page }) => {
  const start = new StartPage(page);
  await start.goto();
  const login = await start.openLoginModal();

  await login.logIn(DEMO_USER.username, 'fel-losenord');
  await expect(login.alerts).toHaveText('Fel användarnamn eller lösenord.');

  await login.password.fill(DEMO_USER.password);
  await login.submit.click();

  await expect(start.loginDialog).toBeHidden();
  await expect(start.logoutButton).toBeVisible();
  await expect(start.header.getByRole('button', { name: 'Mina sidor' })).toBeVisible();
  await expect(start.header.getByRole('button', { name: 'Inställningar' })).toBeVisible();
});

test('a signed-in user who opens the login form is told they are already logged in', async ({ page }) => {
  const start = new StartPage(page);
  await start.goto();
  await (await start.openLoginModal()).logIn(DEMO_USER.username, DEMO_USER.password);
  await expect(start.logoutButton).toBeVisible();

  await page.goto('/utloggad');
  await expect(page.getByText('Du är redan inloggad.')).toBeVisible();
});
