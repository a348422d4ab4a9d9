import { expect, test } from './support/test.ts';
import { chunkOf, pagesFetchedAfterStart } from './support/page-chunks.ts';
import { registerChild } from '../harness/actors/child-account.ts';
import { logInChild } from '../harness/page-models/child-login.ts';

// Once the start page is idle, the child app fetches its own variant's pages in the
// background (quick next steps, and offline use before the service worker is installed), but none of
// the group-support variant's or the Peers variant's, which a Barn child can never open.
test("the child app preloads its pages after the start page, and no other variant's", async ({ page }) => {
  const own = ['create-account-page', 'my-pages-page', 'new-post-page', 'settings-page', 'thread-page'];
  const others = ['group-start-page', 'meeting-detail-page', 'new-peer-post-page', 'peer-post-page'];

  const fetched = await pagesFetchedAfterStart(page, { preloaded: own, watched: [...own, ...others] });

  await expect(page.getByRole('heading', { level: 1, name: 'Stödlinjen' })).toBeVisible();
  expect(fetched).toEqual(own);
});

// A signed-in child who opens a guarded page directly (a link, a reload) gets its code while the
// session is still being read, so the page is drawn the moment the session is known.
test("a signed-in child's link to a guarded page fetches its code while the session is read", async ({
  context,
  request,
}) => {
  await logInChild(await context.newPage(), await registerChild(request));
  const page = await context.newPage();
  // The data layer held back: the session stays unknown, the guard waits.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(chunkOf('app'), async (route) => {
    await released;
    await route.continue();
  });
  const settingsCode = page.waitForRequest((r) => chunkOf('settings-page').test(new URL(r.url()).pathname));

  await page.goto('/installningar', { waitUntil: 'commit' });

  await settingsCode;
  await expect(page.getByRole('status').filter({ hasText: 'Laddar...' }).first()).toBeVisible();
  release();
  await expect(page.getByRole('heading', { level: 1, name: 'Inställningar' })).toBeVisible();
});
