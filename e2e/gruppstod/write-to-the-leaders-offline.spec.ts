import { expect, test } from '../support/test.ts';
import { GroupStartPage } from '../../harness/page-models/group-start-page.ts';
import { MeetingDetailPage } from '../../harness/page-models/meeting-detail-page.ts';
import { startFaultProxy, type FaultProxy } from '../../harness/fault-proxy.ts';

// A participant writes to the group leaders without a network: the message waits in the outbox and
// the form says so, instead of claiming it was sent; it goes once the network is back.

let proxy: FaultProxy;
test.beforeEach(async () => {
  proxy = await startFaultProxy({ target: test.info().project.use.baseURL! });
});
test.afterEach(async () => {
  await proxy.close();
});

test('a private message written offline says it will be sent when online, and is sent then', async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: proxy.origin });
  const page = await context.newPage();
  const start = new GroupStartPage(page);
  await start.logIn();
  await start.openFirstUpcoming();
  const detail = new MeetingDetailPage(page);
  await expect(detail.badge('Kommande')).toBeVisible();
  await detail.privateMessage.click();

  proxy.offline();
  await detail.main.getByLabel('Meddelande').fill('Jag kommer lite sent i dag.');
  await detail.main.getByRole('button', { name: 'Skicka' }).click();
  await expect(detail.main.getByText('Meddelandet skickas när du är uppkopplad igen.')).toBeVisible();
  await expect(detail.main.getByText('Meddelande skickat.')).toHaveCount(0);

  const sent = proxy.waitForRequest({ method: 'POST', path: /\/meetingmessage$/ }, 30_000);
  proxy.online();
  await sent;
  await context.close();
});
