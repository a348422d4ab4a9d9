import { expect, test } from '../support/test.ts';
import { GroupStartPage } from '../../harness/page-models/group-start-page.ts';
import { MeetingDetailPage } from '../../harness/page-models/meeting-detail-page.ts';
import { keepScreenshot, lostContent, zoomTextTo200 } from '../support/text-zoom.ts';

// A participant on a 320 px phone with the text zoomed to 200 %: the meeting list and a meeting's
// detail keep all of their content on the screen. Screenshots are kept with the test results.

test.use({ viewport: { width: 320, height: 640 } });

test('with the text at 200 % at 320 px the meeting list and the meeting detail lose nothing', async ({
  page,
}, testInfo) => {
  await zoomTextTo200(page);
  const start = new GroupStartPage(page);
  await start.logIn();
  await expect(start.upcoming).toBeVisible();
  await expect.soft(page.getByRole('button', { name: 'Lämna sidan' })).toBeInViewport();
  await keepScreenshot(page, testInfo, 'meeting-list');
  const lost = { list: await lostContent(page) };

  await start.openFirstUpcoming();
  const detail = new MeetingDetailPage(page);
  await detail.openEverySection();
  await expect.soft(page.getByRole('button', { name: 'Lämna sidan' })).toBeInViewport();
  await keepScreenshot(page, testInfo, 'meeting-detail');
  Object.assign(lost, { detail: await lostContent(page) });

  expect(lost).toEqual({ list: [], detail: [] });
});
