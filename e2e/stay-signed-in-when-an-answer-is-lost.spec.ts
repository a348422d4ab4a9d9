import { expect, test, type Browser, type Page } from './support/test.ts';
import { registerChild } from '../harness/actors/child-account.ts';
import { logInChild } from '../harness/page-models/child-login.ts';
import { startFaultProxy, type FaultProxy } from '../harness/fault-proxy.ts';

/**
 * The data worker refreshes the token first at every start (SPEC §4). When that answer is lost - the
 * child closed the app during the refresh, the line dropped - the server has swapped the token but
 * the worker still holds the one it sent. The next start presents it again; that must not sign the
 * child out (which also wipes their cached chats).
 */
let proxy: FaultProxy;
test.beforeAll(async () => {
  proxy = await startFaultProxy({ target: test.info().project.use.baseURL! });
});
test.afterEach(() => proxy.clearRules());
test.afterAll(async () => proxy?.close());

/** The shared workers of the proxy's origin that Chromium runs, through the DevTools protocol. */
async function sharedWorkers(browser: Browser): Promise<number> {
  const session = await browser.newBrowserCDPSession();
  try {
    const { targetInfos } = (await session.send('Target.getTargets')) as {
      targetInfos: { type: string; url: string }[];
    };
    return targetInfos.filter((t) => t.type === 'shared_worker' && t.url.startsWith(proxy.origin)).length;
  } finally {
    await session.detach();
  }
}

async function expectSignedIn(page: Page) {
  await expect(page.getByRole('heading', { level: 1, name: 'Hej!', exact: true })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('button', { name: 'Logga ut' })).toBeVisible();
}

test('a child whose phone lost the answer to the startup refresh is still signed in at the next start', async ({
  browser,
  request,
}) => {
  const context = await browser.newContext({ baseURL: proxy.origin });
  const child = await registerChild(request);
  const first = await context.newPage();
  await logInChild(first, child);
  await expectSignedIn(first);
  // Every tab closed: the data worker ends, and the next start boots it afresh.
  await first.close();
  await expect.poll(() => sharedWorkers(browser)).toBe(0);

  // The next start: the server swaps the token, and its answer never arrives.
  const lost = proxy.addRule({ method: 'POST', path: '/connect/token', action: 'drop' });
  const second = await context.newPage();
  await second.goto('/');
  await expect.poll(() => lost.hits).toBeGreaterThan(0);
  // Its access token still serves a while.
  await expectSignedIn(second);
  // Closed with the fault still on: a retry of the worker's meanwhile would have its answer lost too,
  // so the next start is the first to receive one.
  await second.close();
  await expect.poll(() => sharedWorkers(browser)).toBe(0);
  lost.remove();

  // The start after: the worker presents the token it still holds. Only a session the server took
  // loads the profile after its refresh; a refused one is signed out instead.
  const refreshed = proxy.waitForRequest({ method: 'POST', path: '/connect/token' }, 15_000);
  const profile = proxy.waitForRequest(
    { method: 'GET', path: /\/features\/contacts\/[^/]+\/detail$/ },
    15_000,
  );
  const third = await context.newPage();
  await third.goto('/');
  await refreshed;
  await profile;
  await expectSignedIn(third);
  await expect(third).not.toHaveURL(/utloggad/);
  await context.close();
});
