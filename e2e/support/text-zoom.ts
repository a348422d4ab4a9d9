import type { Page, TestInfo } from '@playwright/test';

/**
 * Text zoom to 200 %, as a browser's text-size setting does it: the root font size doubled, so every
 * size given in rem doubles. Appended to the app's own stylesheets (not an inline style, which the
 * app's Content-Security-Policy may refuse), so it holds across navigations of the page.
 */
export async function zoomTextTo200(page: Page) {
  await page.route(/\/assets\/[^/?]+\.css(\?.*)?$/, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, body: `${await response.text()}\nhtml{font-size:200%}` });
  });
}

/**
 * What the screen (the page, or the modal open over it) loses at this width: a page wider than the
 * screen, text drawn outside it (also in dialogs, which the page's width does not include), and boxes
 * that clip or scroll their text sideways. One line per problem, naming the element; [] when nothing
 * is lost.
 */
export function lostContent(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    // Measured from the page's left edge (a focused element may have scrolled it sideways).
    window.scrollTo(0, window.scrollY);
    const problems: string[] = [];
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    // While a modal is open only it is on screen: the page behind it is inert and covered.
    const modals = document.querySelectorAll('dialog[open]');
    const onScreen = modals[modals.length - 1];
    const scrollWidth = document.scrollingElement?.scrollWidth ?? 0;
    if (!onScreen && scrollWidth > width + 1) {
      // Named by the innermost elements that reach past the right edge.
      const wide = [...document.body.querySelectorAll('*')].filter(
        (el) =>
          el.getBoundingClientRect().right > width + 1 &&
          ![...el.children].some((child) => child.getBoundingClientRect().right > width + 1),
      );
      problems.push(`the page is ${scrollWidth} px wide: ${wide.map(name).join(', ')}`);
    }
    for (const el of (onScreen ?? document.body).querySelectorAll('*')) {
      const style = getComputedStyle(el);
      const rect = el.getBoundingClientRect();
      // Not drawn, or only for screen readers (the visually-hidden helper is 1 px wide).
      if (style.visibility === 'hidden' || rect.width <= 1 || rect.height <= 1) continue;
      // The text itself, which may run out of its box (a word too long for the line).
      for (const node of el.childNodes) {
        if (node.nodeType !== Node.TEXT_NODE || !node.textContent?.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        const text = range.getBoundingClientRect();
        if (text.right > width + 1 || text.left < -1)
          problems.push(
            `${name(el)} runs outside the screen (${Math.round(text.left)}-${Math.round(text.right)})`,
          );
      }
      const clips = ['hidden', 'clip', 'auto', 'scroll'].includes(style.overflowX);
      const field = el.matches('input, textarea, select');
      if (clips && !field && el.scrollWidth > el.clientWidth + 1)
        problems.push(`${name(el)} clips its content (${el.scrollWidth} > ${el.clientWidth})`);
    }
    return problems;
  });
}

/**
 * A screenshot of the zoomed screen, kept with the test's results: the whole page, or only the screen
 * while a modal is open (a full-page shot would draw the fixed modal at the top of a long page).
 */
export async function keepScreenshot(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}-320px-text-200.png`);
  const modalOpen = await page.evaluate(() => document.querySelector('dialog[open]') !== null);
  await page.screenshot({ path, fullPage: !modalOpen });
  await testInfo.attach(`${name} at 320 px, text 200 %`, { path, contentType: 'image/png' });
}
