import { expect, test } from './support/test.ts';
import { pagesFetchedAfterStart } from './support/page-chunks.ts';

// Issue 15: once the start page is idle, the child app fetches its own variant's pages in the
// background (quick next steps, and offline use before the service worker is installed), but none of
// the group-support variant's or the Peers variant's, which a Barn child can never open.
test("the child app preloads its pages after the start page, and no other variant's", async ({ page }) => {
  const own = ['create-account-page', 'my-pages-page', 'new-post-page', 'settings-page', 'thread-page'];
  const others = ['group-start-page', 'meeting-detail-page', 'new-peer-post-page', 'peer-post-page'];

  const fetched = await pagesFetchedAfterStart(page, { preloaded: own, watched: [...own, ...others] });

  await expect(page.getByRole('heading', { level: 1, name: 'Stödlinjen' })).toBeVisible();
  expect(fetched).toEqual(own);
});
