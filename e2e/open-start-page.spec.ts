import { expect, test } from './support/test.ts';
import { accessibilityViolations } from './support/accessibility.ts';

test('a visitor opens the start page and sees the provider and the way back to its site', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Stödlinjen' })).toBeVisible();
  const back = page.getByRole('link', { name: 'Gå tillbaka till Stödlinjen' });
  await expect(back).toHaveAttribute('target', '_blank');
  await expect(page.getByText('© 2024 Stödlinjen')).toBeVisible();
  // Before anything else a child may need: the emergency number, one tap away.
  await expect(page.getByRole('link', { name: 'Är det akut? Ring 112.' })).toHaveAttribute('href', 'tel:112');
});

test('a client route is answered with the app, not a server 404', async ({ page }) => {
  const response = await page.goto('/mina-sidor');
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('the start page has no accessibility violations', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await accessibilityViolations(page)).toEqual([]);
});

// The people this is built for asked for React: what draws the page is React DOM (its fiber on
// every node it rendered and on the root it hydrated), not another runtime behind React's API.
test('the start page is drawn by React DOM, hydrated from its first HTML', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Logga in' }).first()).toBeVisible();
  const reactKeys = await page.evaluate(() => ({
    root: Object.keys(document.getElementById('root')!).filter((key) => key.startsWith('__reactContainer$')),
    heading: Object.keys(document.querySelector('h1')!).filter((key) => key.startsWith('__reactFiber$')),
    leave: Object.keys(document.querySelector('[data-quick-exit]')!).filter((key) =>
      key.startsWith('__reactProps$'),
    ),
  }));
  expect(reactKeys.root).toHaveLength(1);
  expect(reactKeys.heading).toHaveLength(1);
  expect(reactKeys.leave).toHaveLength(1);
});
