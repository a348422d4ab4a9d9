import type { BrowserContext } from '@playwright/test';

/**
 * Where quick exit leads in the tests: a local stand-in for the neutral public page (the context
 * routes its address and /config.json names it), so a test measures the app, not someone else's site.
 */
export const NEUTRAL_EXIT_URL = 'http://neutral.example/vader';

export async function withNeutralExit(context: BrowserContext) {
  await context.route('**/config.json', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), quickExitUrl: NEUTRAL_EXIT_URL } });
  });
  await serveNeutralPages(context);
}

/** The stand-in neutral site: every page of it is 'Väder idag'. */
export async function serveNeutralPages(context: BrowserContext) {
  await context.route('http://neutral.example/**', (route) =>
    route.fulfill({
      contentType: 'text/html; charset=utf-8',
      body: '<!doctype html><title>Väder</title><h1>Väder idag</h1>',
    }),
  );
}
