import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Content an attacker could get into what the app shows (a chat message, a mail, a name, a
 * meeting's text): each would set `window.__xss`, add an element of its own or cover the page if
 * it were ever run or rendered as markup.
 */
export const INJECTED_CONTENT = [
  '<script>window.__xss=1</script>',
  '<img src=x onerror="window.__xss=1">',
  '<svg onload="window.__xss=1"><circle r="9"></circle></svg>',
  'javascript:window.__xss=1',
  '<a href="javascript:window.__xss=1">klicka här</a>',
  '<div style="position:fixed;inset:0;background:red">overlay</div>',
  '<iframe srcdoc="<script>parent.__xss=1</script>"></iframe>',
  '"><script>window.__xss=1</script>',
  "'><img src=x onerror=window.__xss=1>",
  '<math><mtext><table><mglyph><style><img src=x onerror="window.__xss=1">',
] as const;

/** What the markup above would have added, told apart from the app's own icons and styles. */
const INJECTED_ELEMENTS = [
  'script',
  'img[src="x"]',
  'svg[onload]',
  'circle[r="9"]',
  'math',
  'mglyph',
  'iframe',
  'style',
  '[onerror]',
  '[onload]',
  '[srcdoc]',
  '[style*="position:fixed"]',
  'a[href^="javascript:" i]',
].join(', ');

/** Nothing ran, nothing was added inside `content` (default: the whole body), no marker was set. */
export async function expectNothingInjected(page: Page, content: Locator = page.locator('body')) {
  expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
  await expect(content.locator(INJECTED_ELEMENTS)).toHaveCount(0);
}
