import { expect, test } from './support/test.ts';
import { registerChild } from '../harness/actors/child-account.ts';
import { DEMO_USER } from '../harness/page-models/app-page.ts';
import { StartPage } from '../harness/page-models/start-page.ts';

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

test('a login the server asks to wait for says so in Swedish, not as the general error', async ({
  page,
  request,
}) => {
  const account = await registerChild(request);
  const start = new StartPage(page);
  await start.goto();
  const login = await start.openLoginModal();
  await login.username.fill(account.username);
  await login.password.fill(account.password);

  // Wrong passwords for this username from this address (a tool, which sends no Origin), honouring
  // each wait the server asks for, until it asks for one long enough for the form to be sent in.
  let retryAfter = 0;
  for (let i = 0; retryAfter < 8 && i < 40; i++) {
    if (retryAfter > 0) await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
    const res = await request.post('/connect/token', {
      form: {
        grant_type: 'password',
        client_id: 'portal-web',
        username: account.username,
        password: `fel-${i}`,
      },
    });
    retryAfter = res.status() === 429 ? Number(res.headers()['retry-after']) : 0;
  }
  expect(retryAfter).toBeGreaterThanOrEqual(8);

  await login.submit.click();
  await expect(login.alerts).toHaveText('För många försök. Vänta en stund och försök igen.');
  await expect(start.loginDialog).toBeVisible();
});
