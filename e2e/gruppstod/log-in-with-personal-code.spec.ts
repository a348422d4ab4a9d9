import { expect, test } from '../support/test.ts';
import { DEMO_PERSONAL_CODE } from '../../harness/page-models/app-page.ts';
import { LoginPage } from '../../harness/page-models/login-page.ts';

test('a group participant logs in with the personal code on the start page', async ({ page }) => {
  await page.goto('/');
  const login = new LoginPage(page.getByRole('main'));

  await expect(login.personalCode).toHaveAttribute('placeholder', 'Ange den kod du fått av Stödlinjen');
  await expect(login.password).toHaveCount(0);
  await expect(login.registerLink).toHaveCount(0);
  await expect(login.forgotPassword).toHaveCount(0);

  await login.personalCode.fill('DEMOKOD');
  await login.personalCode.blur();
  await expect(login.alerts).toHaveText('Koden måste vara minst 10 tecken.');

  await login.logInWithCode(DEMO_PERSONAL_CODE);
  await expect(page.getByRole('banner').getByRole('button', { name: 'Logga ut' })).toBeVisible();
});

test('the logged-out page and /start lead to the start page in group support', async ({ page }) => {
  await page.goto('/utloggad');
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/start');
  await expect(page).toHaveURL(/\/$/);
});
