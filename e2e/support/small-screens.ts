import { expect, test, type Locator, type Page, type TestInfo } from '@playwright/test';

/** The phones a child is most likely to hold: the smallest in use, the common Android, the iPhone. */
export const PHONE_SIZES = [
  { width: 320, height: 568 },
  { width: 360, height: 640 },
  { width: 390, height: 844 },
] as const;

export type PhoneSize = (typeof PHONE_SIZES)[number];

/**
 * The on-screen keyboard: about half the screen. Shrinking the viewport is what the keyboard does to
 * a page in Chromium with `interactive-widget=resizes-content` (index.html), and to the visual
 * viewport everywhere.
 */
export async function openKeyboard(page: Page, size: PhoneSize) {
  await resizeTo(page, { width: size.width, height: Math.round(size.height / 2) });
}

export async function closeKeyboard(page: Page, size: PhoneSize) {
  await resizeTo(page, size);
}

/**
 * The viewport at `size`, and the page's answer to it painted: the screens answer a resize in the
 * next frames (React renders the visual viewport's new height after its event), and a child sees
 * the page once they have, not between the resize and the render.
 */
async function resizeTo(page: Page, size: { width: number; height: number }) {
  await page.setViewportSize(size);
  await page.waitForFunction((height) => window.visualViewport?.height === height, size.height);
  await page.evaluate(
    () => new Promise<void>((painted) => requestAnimationFrame(() => requestAnimationFrame(() => painted()))),
  );
}

/** Nothing wider than the screen: the page never scrolls sideways. */
export async function expectNoSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    screen: window.visualViewport?.width ?? window.innerWidth,
    // A full-screen modal scrolls by itself, not with the page.
    dialogs: [...document.querySelectorAll('dialog[open]')].map((d) => d.scrollWidth - d.clientWidth),
  }));
  expect(widths.page, 'the page is wider than the screen').toBeLessThanOrEqual(widths.screen);
  for (const extra of widths.dialogs) expect(extra, 'a dialog is wider than the screen').toBe(0);
}

/**
 * `target` is wholly inside the visual viewport and it is what a tap at its middle reaches: nothing
 * fixed, sticky or in the top layer covers it.
 */
export async function expectInViewAndReachable(target: Locator, what: string) {
  await expect(target, `${what} is shown`).toBeVisible();
  const seen = await target.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const viewport = window.visualViewport;
    const top = viewport?.offsetTop ?? 0;
    const left = viewport?.offsetLeft ?? 0;
    const bottom = top + (viewport?.height ?? window.innerHeight);
    const right = left + (viewport?.width ?? window.innerWidth);
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return {
      inside:
        box.top >= top - 0.5 &&
        box.left >= left - 0.5 &&
        box.bottom <= bottom + 0.5 &&
        box.right <= right + 0.5,
      box: `${Math.round(box.left)},${Math.round(box.top)} ${Math.round(box.width)}x${Math.round(box.height)}`,
      viewport: `${Math.round(right - left)}x${Math.round(bottom - top)}`,
      reached: hit !== null && (hit === el || el.contains(hit)),
      hit: hit ? `${hit.tagName.toLowerCase()}.${hit.className}` : 'nothing',
    };
  });
  if (!seen.inside || !seen.reached)
    await keepScreenshot(target.page(), test.info(), `${what.replace(/\W+/g, '-')}.png`);
  expect(seen.inside, `${what} (${seen.box}) is inside the ${seen.viewport} viewport`).toBe(true);
  expect(seen.reached, `a tap on ${what} reaches it, not ${seen.hit}`).toBe(true);
}

/** A screenshot kept with the test's results (test-results/), named by the screen and its size. */
export async function keepScreenshot(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(name);
  await page.screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/** One screen of the layout walk: how to open it, and what on it must stay in a child's reach. */
export interface PhoneScreen {
  name: string;
  open(page: Page): Promise<void>;
  /** The one action the screen is for. */
  primary?: (page: Page) => Locator;
  /** The last field before the submit button, and the button: both in view with the keyboard open. */
  field?: (page: Page) => Locator;
  submit?: (page: Page) => Locator;
}

/**
 * Walks `screen` at each phone size: nothing wider than the screen, 'Lämna sidan' and the screen's
 * action in reach (nothing fixed over them), and with the keyboard open the focused field and its
 * submit button on screen (the app brings both into view as the keyboard opens: keep-writing-in-view.ts).
 */
export async function walkOnPhones(page: Page, testInfo: TestInfo, screen: PhoneScreen) {
  for (const size of PHONE_SIZES) {
    const at = `${screen.name} at ${size.width}x${size.height}`;
    await page.setViewportSize(size);
    await screen.open(page);
    await expectNoSidewaysScroll(page);
    await expectInViewAndReachable(
      page.getByRole('button', { name: 'Lämna sidan' }).last(),
      `'Lämna sidan' on ${at}`,
    );
    if (screen.primary) {
      const primary = screen.primary(page);
      await primary.evaluate((el) => el.scrollIntoView({ block: 'nearest' }));
      await expectInViewAndReachable(primary, `the action of ${at}`);
    }
    await keepScreenshot(page, testInfo, `${screen.name}-${size.width}x${size.height}.png`);
    if (!screen.field || !screen.submit) continue;
    const field = screen.field(page);
    const submit = screen.submit(page);
    await field.focus();
    await openKeyboard(page, size);
    await expect(field).toBeFocused();
    // Until the page has settled: the header slides away in 0.2 s as the page scrolls down.
    await expect(async () => {
      await expectInViewAndReachable(field, `the field on ${at}, keyboard open`);
      await expectInViewAndReachable(submit, `the submit button on ${at}, keyboard open`);
    }).toPass({ timeout: 5_000 });
    await expectNoSidewaysScroll(page);
    await keepScreenshot(page, testInfo, `${screen.name}-keyboard-${size.width}x${size.height}.png`);
    await closeKeyboard(page, size);
  }
}
