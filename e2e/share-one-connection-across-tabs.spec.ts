import { expect, test, type APIRequestContext, type BrowserContext } from './support/test.ts';
import { DEMO_USER } from '../harness/page-models/app-page.ts';
import { MyPagesPage } from '../harness/page-models/my-pages-page.ts';
import { StartPage } from '../harness/page-models/start-page.ts';

/** Open hub connections of the server, all transports (ARCHITECTURE.md /metrics). */
async function hubConnections(request: APIRequestContext): Promise<number> {
  const text = await (await request.get('/metrics')).text();
  return Number(/^hub_connections (\d+)$/m.exec(text)?.[1] ?? NaN);
}

async function signInAndOpenThreeTabs(context: BrowserContext) {
  const first = await context.newPage();
  const start = new StartPage(first);
  await start.goto();
  await (await start.openLoginModal()).logIn(DEMO_USER.username, DEMO_USER.password);
  await expect(start.logoutButton).toBeVisible();
  const tabs = [first];
  for (let i = 0; i < 2; i++) {
    const tab = await context.newPage();
    const myPages = new MyPagesPage(tab);
    await myPages.goto();
    await expect(myPages.username).toHaveText('demo');
    tabs.push(tab);
  }
  return tabs;
}

test.beforeEach(async ({ request }) => {
  // Each test starts from a server with no connections left over from the one before.
  await expect.poll(() => hubConnections(request)).toBe(0);
});

test('three tabs of one signed-in user share one hub connection', async ({ context, request }) => {
  await signInAndOpenThreeTabs(context);
  await expect.poll(() => hubConnections(request)).toBe(1);
  await context.close();
});

test('without SharedWorker, one tab holds the connection for all three and another takes over when it closes', async ({
  browser,
  request,
}) => {
  const context = await browser.newContext();
  await context.addInitScript(() => {
    // Browsers without SharedWorker (Chrome on Android) take the dedicated-worker path.
    Reflect.deleteProperty(window, 'SharedWorker');
  });
  const tabs = await signInAndOpenThreeTabs(context);
  expect(await tabs[0]!.evaluate(() => 'SharedWorker' in window)).toBe(false);
  await expect.poll(() => hubConnections(request)).toBe(1);

  // Whichever tab leads, closing tabs one by one always leaves exactly one connection.
  await tabs[0]!.close();
  await expect.poll(() => hubConnections(request)).toBe(1);
  await tabs[1]!.close();
  await expect.poll(() => hubConnections(request)).toBe(1);
  await context.close();
});

test('the hub connection ends when the user logs out', async ({ context, request }) => {
  const tabs = await signInAndOpenThreeTabs(context);
  await expect.poll(() => hubConnections(request)).toBe(1);
  await new StartPage(tabs[0]!).logOut();
  await expect.poll(() => hubConnections(request)).toBe(0);
  await expect(tabs[2]!).toHaveURL(/\/utloggad$/);
  await context.close();
});
