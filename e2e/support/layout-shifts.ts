import type { Page } from '@playwright/test';

interface Shift {
  value: number;
  sources: string[];
}

/**
 * Records the page's layout shifts from the start of every navigation (the Layout Instability API
 * Lighthouse's CLS reads), with the elements that moved. Call before `goto`.
 */
export async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shifts: Shift[] = [];
    (window as unknown as { __layoutShifts: Shift[] }).__layoutShifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<
        PerformanceEntry & {
          value: number;
          hadRecentInput: boolean;
          sources?: Array<{ node?: Node | null }>;
        }
      >) {
        if (entry.hadRecentInput) continue;
        shifts.push({
          value: entry.value,
          sources: (entry.sources ?? []).map((s) => {
            const node = s.node;
            if (!(node instanceof Element)) return node?.nodeName ?? '(gone)';
            return `${node.tagName.toLowerCase()} "${(node.textContent ?? '').trim().slice(0, 40)}"`;
          }),
        });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/**
 * The page's shifts so far and their sum (CLS of a page that is loaded and then left alone), once two
 * more frames are drawn (an entry is reported after its frame).
 */
export async function layoutShifts(page: Page): Promise<{ score: number; shifts: Shift[] }> {
  const shifts = await page.evaluate(async () => {
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return (window as unknown as { __layoutShifts: Shift[] }).__layoutShifts;
  });
  return { score: shifts.reduce((sum, s) => sum + s.value, 0), shifts };
}
