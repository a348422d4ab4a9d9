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
