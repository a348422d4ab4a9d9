import { expect, test, type Page } from './support/test.ts';
import { violationsAtBothWidths } from './support/accessibility.ts';
import { registerChild } from '../harness/actors/child-account.ts';
import { logInChild } from '../harness/page-models/child-login.ts';

// The first HTML is the neutral first screen; the entry draws the signed-out start page by itself
// and fetches the app's code (the data layer) behind it, for a signed-in child before their page.
// When that code cannot be fetched (a dropped line on a first visit, before the service worker holds
// it), the child is told so and offered a reload instead of a page whose buttons do nothing.
test('a start page whose app code does not arrive says so and offers a reload that works', async ({
  page,
}) => {
  let blocked = true;
  await page.route(/\/assets\/app-[\w-]{8}\.js$/, (route) => (blocked ? route.abort() : route.continue()));

  await page.goto('/');

  await expect(page.getByRole('alert')).toHaveText(
    'Appen kunde inte startas. Kontrollera din internetuppkoppling och ladda om sidan.',
  );
  await expect(page.getByRole('heading', { level: 1, name: 'Något gick fel' })).toBeVisible();
  expect(await violationsAtBothWidths(page)).toEqual([]);
  blocked = false;
  await page.getByRole('button', { name: 'Ladda om sidan' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Stödlinjen' })).toBeVisible();
});

/**
 * Holds the script the page asks for at `url` until the test lets it go; asserts the neutral first
 * screen meanwhile (announced as loading, never 'Logga in') and the start page's `text` after.
 */
async function expectLoadingScreenWhileHeld(
  page: Page,
  url: RegExp,
  waitUntil: 'load' | 'commit',
  text: string,
) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    await released;
    await route.continue();
  });

  await page.goto('/', { waitUntil });

  // (The toasts' live region is a status too, once the app runs.)
  await expect(page.getByRole('status').filter({ hasText: 'Laddar...' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Stödlinjen' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Logga in' })).toHaveCount(0);
  release();
  await expect(page.getByText(text, { exact: true })).toBeVisible();
}

test("a signed-in child's start page is announced as loading while the app code is on its way", async ({
  page,
  request,
}) => {
  const child = await registerChild(request);
  await logInChild(page, child);
  await expectLoadingScreenWhileHeld(page, /\/assets\/app-[\w-]{8}\.js$/, 'load', 'Hej!');
});

// index.html carries the first screen itself, so a phone on a slow line paints it with the HTML and
// its one stylesheet, before the entry script (and React) have arrived.
test('the loading screen is on screen before any script has arrived', async ({ page }) => {
  await expectLoadingScreenWhileHeld(
    page,
    /\/assets\/index-[\w-]{8}\.js$/,
    'commit',
    'Logga in för att chatta med en kurator eller skriva ett meddelande. Du är anonym hos oss.',
  );
});
