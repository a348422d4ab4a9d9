import { expect, test } from './support/test.ts';
import { DEMO_USER } from '../harness/page-models/app-page.ts';
import { MyPagesPage } from '../harness/page-models/my-pages-page.ts';
import { StartPage } from '../harness/page-models/start-page.ts';

test('the organisation logo asks before leaving for the organisation site', async ({ page }) => {
  const start = new StartPage(page);
  await start.goto();
  const logo = start.header.getByRole('button', { name: 'Gå till webbplatsen för Stödlinjen' });

  await logo.click();
  const confirm = page.getByRole('dialog', { name: 'Lämna appen?' });
  await expect(confirm.getByRole('button', { name: 'Ja' })).toBeVisible();
  await confirm.getByRole('button', { name: 'Nej, stanna här' }).click();

  await expect(confirm).toBeHidden();
  await expect(logo).toBeFocused();
  await expect(page).toHaveURL(/\/$/);
});

test('a signed-in user finds the version, and the back button leads to the start page', async ({ page }) => {
  const start = new StartPage(page);
  await start.goto();
  await expect(start.header.getByText('0.93')).toBeVisible();
  await (await start.openLoginModal()).logIn(DEMO_USER.username, DEMO_USER.password);
  await expect(start.logoutButton).toBeVisible();

  const myPages = new MyPagesPage(page);
  await myPages.goto();
  await expect(myPages.heading).toBeVisible();
  await myPages.header.getByRole('button', { name: 'Tillbaka' }).click();
  await expect(page).toHaveURL(/\/$/);

  await start.header.getByRole('button', { name: 'Inställningar' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Inställningar' })).toBeVisible();
  await start.header.getByRole('link', { name: /till startsidan/i }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('the header hides when scrolling down and comes back when scrolling up', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 240 });
  const start = new StartPage(page);
  await start.goto();
  const header = start.header;

  await page.mouse.wheel(0, 400);
  await expect(header).not.toBeInViewport();
  await page.mouse.wheel(0, -100);
  await expect(header).toBeInViewport();
});

test('the product logo reloads the start page, and leads to it from another page', async ({ page }) => {
  const start = new StartPage(page);
  await start.goto();
  await page.evaluate(() => Object.assign(window, { beforeLogo: true }));
  const reloaded = page.waitForEvent('load');
  await start.header.getByRole('link', { name: 'Stödlinjen, till startsidan' }).click();
  await reloaded;
  expect(await page.evaluate(() => 'beforeLogo' in window)).toBe(false);

  await page.goto('/skapa-konto');
  await start.header.getByRole('link', { name: 'Stödlinjen, till startsidan' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('a variant without the assistant shows no assistant toggle, even with the state cookie of one that has it', async ({
  page,
  context,
  baseURL,
}) => {
  // Cookies are per host, not per port or app: another variant on this host opened its assistant.
  await context.addCookies([{ name: 'web_assistant-state', value: 'Active', url: baseURL! }]);
  const start = new StartPage(page);
  await start.goto();
  await expect(start.header.getByRole('button', { name: /virtuella assistenten/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Fråga assistenten' })).toHaveCount(0);
  expect((await context.cookies()).map((c) => c.name)).toContain('web_assistant-state');
});
