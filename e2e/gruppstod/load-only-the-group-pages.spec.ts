import { expect, test } from '../support/test.ts';
import { pagesFetchedAfterStart } from '../support/page-chunks.ts';

// The group-support variant fetches its own pages once the start page is idle, and none of
// the child app's (registration, a new mail, the one-to-one chat window, the Peers pages).
test("the group-support app preloads its pages after the start page, and no other variant's", async ({
  page,
}) => {
  const own = ['group-start-page', 'meeting-detail-page', 'my-pages-page', 'settings-page', 'thread-page'];
  const others = [
    'create-account-page',
    'new-post-page',
    'child-chat-window',
    'new-peer-post-page',
    'peer-post-page',
  ];

  const fetched = await pagesFetchedAfterStart(page, { preloaded: own, watched: [...own, ...others] });

  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(fetched).toEqual(own);
});
