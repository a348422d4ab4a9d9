import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * The axe-core violations on the page as one line each (rule, help text and the offending nodes), so
 * that `expect(...).toEqual([])` names what is wrong when it fails. `within` narrows the check to one
 * part of the page, e.g. an open dialog.
 */
export async function accessibilityViolations(page: Page, within?: string): Promise<string[]> {
  const builder = new AxeBuilder({ page });
  if (within) builder.include(within);
  const results = await builder.analyze();
  return results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target).join(', ')})`);
}

/** The widths every screen is checked at: the smallest phone and a desktop. */
export const CHECKED_WIDTHS = [320, 1280] as const;

/**
 * The violations of the screen as it is at 320 px and at 1280 px wide, each line starting with its
 * width; the page is left at its own viewport size again. One page state is checked at both widths
 * without setting it up twice.
 */
export async function violationsAtBothWidths(page: Page, within?: string): Promise<string[]> {
  const own = page.viewportSize() ?? { width: 1280, height: 800 };
  const found: string[] = [];
  try {
    for (const width of CHECKED_WIDTHS) {
      await page.setViewportSize({ width, height: own.height });
      // Media-query listeners (the desktop layout) re-render after the resize: let a frame pass.
      await page.evaluate(
        () => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
      );
      found.push(...(await accessibilityViolations(page, within)).map((v) => `${width}px ${v}`));
    }
  } finally {
    await page.setViewportSize(own);
  }
  return found;
}
