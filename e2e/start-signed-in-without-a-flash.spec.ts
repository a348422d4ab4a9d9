import { expect, test, type Page } from '@playwright/test';
import { registerChild } from './actors/child-account.ts';
import { logInChild } from './page-models/child-login.ts';

declare global {
  interface Window {
    /** Set by the init script: whether any login prompt was on the page at any frame since navigation. */
    __sawLogin?: boolean;
  }
}

/**
 * From the first script of the page on, every animation frame and every DOM change is checked for a
 * 'Logga in' button or the signed-out start page's text; the first sighting stays recorded.
 */
function watchForLoginPrompt() {
  window.__sawLogin = false;
  const check = () => {
    if (window.__sawLogin) return;
    const buttons = Array.from(document.querySelectorAll('button, a'));
    const loginButton = buttons.some((b) => b.textContent?.trim() === 'Logga in');
    const prompt = document.body?.textContent?.includes('Logga in för att chatta') ?? false;
    if (loginButton || prompt) window.__sawLogin = true;
  };
  const frame = () => {
    check();
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
}

async function expectSignedInStartWithoutLogin(page: Page, username: string) {
  await expect(page.getByRole('heading', { level: 1, name: `Hej ${username}!` })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('button', { name: 'Logga ut' })).toBeVisible();
  expect(await page.evaluate(() => window.__sawLogin)).toBe(false);
}

test('a signed-in child who reloads or opens a new tab never sees the login prompt first', async ({
  page,
  context,
  request,
}) => {
  const child = await registerChild(request);
  await logInChild(page, child);
  await context.addInitScript(watchForLoginPrompt);

  await page.reload();
  await expectSignedInStartWithoutLogin(page, child.username);

  const second = await context.newPage();
  await second.goto('/');
  await expectSignedInStartWithoutLogin(second, child.username);
});
