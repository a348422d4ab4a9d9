import { expect, test } from './support/test.ts';
import { StartPage } from './page-models/start-page.ts';

test('a user pressing log in with empty fields is told what is missing', async ({ page }) => {
  const start = new StartPage(page);
  await start.goto();
  const login = await start.openLoginModal();

  await expect(login.submit).toHaveAttribute('aria-disabled', 'true');
  await login.pressSubmit();

  await expect(login.alerts).toHaveText(['Måste anges.', 'Måste anges.']);
  await expect(login.username).toHaveAttribute('aria-invalid', 'true');
  await expect(login.password).toHaveAttribute('aria-invalid', 'true');
});

test('a username of only spaces is not accepted', async ({ page }) => {
  const start = new StartPage(page);
  await start.goto();
  const login = await start.openLoginModal();

  await login.username.fill('   ');
  await login.username.blur();

  await expect(login.alerts).toHaveText('Måste anges.');
  await login.username.fill('demo');
  await login.password.fill('x');
  await expect(login.alerts).toHaveCount(0);
  await expect(login.submit).toHaveAttribute('aria-disabled', 'false');
});

test('the login form offers registration and reminds the user to log out', async ({ page }) => {
  const start = new StartPage(page);
  await start.goto();
  const login = await start.openLoginModal();

  await expect(login.registerLink).toHaveAttribute('href', '/skapa-konto?style=mail');
  await expect(
    login.form.getByText('Kom ihåg att logga ut ordentligt och stänga webbläsaren när du är klar.'),
  ).toBeVisible();
});
