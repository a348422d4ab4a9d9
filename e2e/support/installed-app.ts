import type { Page } from '@playwright/test';

/**
 * Makes this page behave as the production app: the e2e server is not in production, so the page
 * is told it is, and the service worker registers at once instead of after 30 s (startPwa() reads
 * the test delay once; it can only shorten the wait).
 */
export async function runAsProductionApp(page: Page) {
  await page.addInitScript(() => {
    window.__PWA_TEST_DELAY_MS__ = 0;
  });
  await page.route('**/config.json', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), production: true } });
  });
}
