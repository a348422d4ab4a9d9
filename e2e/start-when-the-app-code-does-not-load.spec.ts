import { expect, test, type Page } from './support/test.ts';
import { violationsAtBothWidths } from './support/accessibility.ts';

// Issue 15: the entry draws the loading screen and fetches the app's code behind it. When that code
// cannot be fetched (a dropped line on a first visit, before the service worker holds it), the child
// is told so and offered a reload instead of a spinner that turns forever.
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
 * Holds the script the page asks for at `url` until the test lets it go; asserts the loading screen
 * meanwhile and the start page after.
 */
async function expectLoadingScreenWhileHeld(page: Page, url: RegExp, waitUntil: 'load' | 'commit') {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    await released;
    await route.continue();
  });

  await page.goto('/', { waitUntil });

  await expect(page.getByRole('status')).toHaveText('Laddar...');
  release();
  await expect(page.getByRole('heading', { level: 1, name: 'Stödlinjen' })).toBeVisible();
}

test('the loading screen is announced while the app code is on its way', async ({ page }) => {
  await expectLoadingScreenWhileHeld(page, /\/assets\/app-[\w-]{8}\.js$/, 'load');
});

// Issue 15: index.html carries the loading screen itself, so a phone on a slow line paints it with
// the HTML and its one stylesheet, before the entry script (and React) have arrived.
test('the loading screen is on screen before any script has arrived', async ({ page }) => {
  await expectLoadingScreenWhileHeld(page, /\/assets\/index-[\w-]{8}\.js$/, 'commit');
});
