import { expect, test } from './support/test.ts';
import { accessibilityViolations } from './support/accessibility.ts';
import { LoggedOutPage } from '../harness/page-models/logged-out-page.ts';
import type { LoginPage } from '../harness/page-models/login-page.ts';
import { StartPage } from '../harness/page-models/start-page.ts';

test('a user pressing log in with empty fields is told what is missing', async ({ page }) => {
  const start = new StartPage(page);
  await start.goto();
  const login = await start.openLoginModal();

  // SPEC §5: disabled while invalid, as assistive technology and Playwright's toBeDisabled see it.
  await expect(login.submit).toBeDisabled();
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
  await expect(login.submit).toBeEnabled();
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

const NO_EMAIL =
  'Vi kan inte skicka ett nytt lösenord, eftersom ditt konto inte har någon e-postadress. Det är så du kan vara anonym hos oss.';
const NEW_ACCOUNT =
  'Du kan skapa ett nytt konto och fortsätta prata med oss där. Med det nya kontot kan du chatta med en kurator eller skriva ett meddelande till oss, precis som förut.';

/** Opens 'Glömt lösenord?' and checks what it says; answers the opened part. */
async function openForgotPassword(login: LoginPage) {
  await expect(login.forgotPassword).toHaveAttribute('aria-expanded', 'false');
  const answer = await login.forgotPasswordAnswer();
  await expect(answer).toBeHidden();
  await login.forgotPassword.click();
  await expect(login.forgotPassword).toHaveAttribute('aria-expanded', 'true');
  await expect(answer.getByRole('paragraph')).toHaveText([NO_EMAIL, NEW_ACCOUNT, 'Skapa ett nytt konto']);
  return answer;
}

test("'Glömt lösenord?' in the login modal explains there is no e-mail and leads to a new account", async ({
  page,
}) => {
  const start = new StartPage(page);
  await start.goto();
  const login = await start.openLoginModal();
  // It sits right under the password field, also in the keyboard's order.
  await login.password.focus();
  await page.keyboard.press('Tab');
  await expect(login.forgotPassword).toBeFocused();

  const answer = await openForgotPassword(login);
  expect(await accessibilityViolations(page, 'dialog')).toEqual([]);
  await login.forgotPassword.press('Enter');
  await expect(answer).toBeHidden();
  await expect(login.forgotPassword).toHaveAttribute('aria-expanded', 'false');

  await login.forgotPassword.press('Enter');
  await answer.getByRole('link', { name: 'Skapa ett nytt konto' }).click();
  await expect(page).toHaveURL(/\/skapa-konto\?style=mail$/);
});

test("the standalone login form of the logged-out page has 'Glömt lösenord?' too", async ({ page }) => {
  const loggedOut = new LoggedOutPage(page);
  await loggedOut.goto();
  const answer = await openForgotPassword(loggedOut.loginForm);
  await expect(answer.getByRole('link', { name: 'Skapa ett nytt konto' })).toHaveAttribute(
    'href',
    '/skapa-konto?style=mail',
  );
});
