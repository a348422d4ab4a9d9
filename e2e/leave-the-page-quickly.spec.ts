import { expect, test, type BrowserContext, type Page } from './support/test.ts';
import { registerChild } from '../harness/actors/child-account.ts';
import { ChildChatPage } from '../harness/page-models/child-chat-page.ts';
import { NEUTRAL_EXIT_URL as NEUTRAL, withNeutralExit } from './support/neutral-exit.ts';

/** Quick exit: a child hides the app at once (to a local neutral page, see support/neutral-exit.ts). */
/** From the click or the third Shift to the navigation to the neutral page. */
const LEAVE_WITHIN_MS = 300;

/**
 * Runs `act` and answers how long it took the app from the child's last input (click or key, as the
 * page saw it) to the start of the navigation to the neutral page (that page's time origin): the
 * app's own part, without the test harness's round trips.
 */
async function timeToLeave(page: Page, act: () => Promise<void>): Promise<number> {
  const left = page.waitForURL(NEUTRAL, { waitUntil: 'commit' });
  await act();
  await left;
  const navigationStart = await page.evaluate(() => performance.timeOrigin);
  const input = lastInputAt.get(page);
  if (input === undefined) throw new Error('no input was seen');
  return navigationStart - input;
}

/** The page's last click or key press (epoch ms), reported by the init script below. */
const lastInputAt = new WeakMap<Page, number>();

async function watchInput(context: BrowserContext) {
  await context.exposeBinding('__quickExitInput', ({ page }, at: number) => {
    lastInputAt.set(page, at);
  });
  await context.addInitScript(() => {
    const report = () =>
      (window as unknown as { __quickExitInput(at: number): void }).__quickExitInput(Date.now());
    window.addEventListener('click', report, { capture: true });
    window.addEventListener('keydown', report, { capture: true });
  });
}

async function pressShiftThreeTimes(page: Page) {
  for (let i = 0; i < 3; i++) await page.keyboard.press('Shift');
}

test.describe('leave the page quickly', () => {
  test.beforeEach(async ({ context }) => {
    await withNeutralExit(context);
    await watchInput(context);
  });

  test("'Lämna sidan' is the first stop after the skip link and leaves the start page at once; Back does not return", async ({
    page,
    request,
    baseURL,
  }) => {
    const chat = new ChildChatPage(page);
    await chat.logIn(await registerChild(request, 'lamna'));
    // A fresh load, so the keyboard starts from the top of the page.
    await page.goto('/');
    await expect(chat.logoutButton).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Hoppa till innehållet' })).toBeFocused();
    await page.keyboard.press('Tab');
    const leave = page.getByRole('button', { name: 'Lämna sidan' });
    await expect(leave).toBeFocused();
    await expect(leave).toHaveAccessibleDescription(/Skift tre gånger/);

    expect(await timeToLeave(page, () => page.keyboard.press('Enter'))).toBeLessThanOrEqual(LEAVE_WITHIN_MS);
    await expect(page.getByRole('heading', { name: 'Väder idag' })).toBeVisible();

    // The exit took the app's place in the history: Back leads to what was before it.
    await page.goBack();
    await expect(page).not.toHaveURL(new RegExp(`^${baseURL}`));
    await expect(page.getByRole('button', { name: 'Logga ut' })).toHaveCount(0);
  });

  test('leaves from an open chat window at 320 px, and Back does not show the chat', async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    const chat = new ChildChatPage(page);
    await chat.logIn(await registerChild(request, 'lamnachatt'));
    await page.goto('/mina-sidor');
    await page.goto('/');
    await chat.startChat();
    await chat.expectInQueue();

    const leave = chat.dialog.getByRole('button', { name: 'Lämna sidan' });
    await expect(leave).toBeVisible();
    // On top: what is drawn at its centre is the button itself.
    const box = (await leave.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(320);
    const onTop = await page.evaluate(
      ([x, y]) => document.elementFromPoint(x!, y!)?.textContent,
      [box.x + box.width / 2, box.y + box.height / 2],
    );
    expect(onTop).toBe('Lämna sidan');

    expect(await timeToLeave(page, () => leave.click())).toBeLessThanOrEqual(LEAVE_WITHIN_MS);
    await page.goBack();
    await expect(page).toHaveURL(NEUTRAL);
    await expect(page.getByRole('dialog', { name: 'Chatt' })).toHaveCount(0);
    await page.goBack();
    await expect(page).toHaveURL(NEUTRAL);
  });

  test('Shift three times leaves from a dialog; a capital letter between presses does not', async ({
    page,
  }) => {
    await page.goto('/');
    await page.getByRole('banner').getByRole('button', { name: 'Logga in' }).click();
    const form = page.getByRole('form', { name: 'Logga in' });
    const username = form.getByLabel('Användarnamn');
    await username.click();
    // Typing with capitals is Shift and a letter: it never counts as the exit.
    await page.keyboard.press('Shift');
    await page.keyboard.press('Shift+A');
    await page.keyboard.press('Shift');
    await expect(username).toHaveValue('A');
    await expect(page).not.toHaveURL(NEUTRAL);
    // The dialog has its own 'Lämna sidan' (the page behind it is inert).
    await expect(page.getByRole('dialog').getByRole('button', { name: 'Lämna sidan' })).toBeVisible();

    expect(await timeToLeave(page, () => pressShiftThreeTimes(page))).toBeLessThanOrEqual(LEAVE_WITHIN_MS);
    await expect(page.getByRole('heading', { name: 'Väder idag' })).toBeVisible();
  });
});
