import type { Page } from '@playwright/test';

/** The built JS chunk of a lazily loaded page, named after its module: `assets/settings-page-Ab12_x.js`. */
export const chunkOf = (page: string) => new RegExp(`/assets/${page}-[\\w-]{8}\\.js$`);

/**
 * Opens '/' and waits until each of `preloaded` pages' chunks has come in (the app fetches the pages
 * of its variant once the start page is idle, in one go); returns every page chunk of `watched` that
 * was requested by then.
 */
export async function pagesFetchedAfterStart(
  page: Page,
  { preloaded, watched }: { preloaded: string[]; watched: string[] },
): Promise<string[]> {
  const requested = new Set<string>();
  page.on('request', (request) => {
    for (const name of watched) if (chunkOf(name).test(new URL(request.url()).pathname)) requested.add(name);
  });
  const arrived = preloaded.map((name) =>
    page.waitForResponse((response) => chunkOf(name).test(new URL(response.url()).pathname)),
  );
  await page.goto('/');
  await Promise.all(arrived);
  return [...requested].sort();
}
