import { registerChild } from '../../harness/actors/child-account.ts';
import { AssistantPanel } from '../../harness/page-models/assistant-panel.ts';
import { ChildChatPage } from '../../harness/page-models/child-chat-page.ts';
import { PHONE_SIZES, expectInViewAndReachable, keepScreenshot } from '../support/small-screens.ts';
import { expect, test } from '../support/test.ts';

// On a phone the open assistant is a sheet over the bottom of the screen. It never keeps the page's
// one action out of reach: the page scrolls its last part above the sheet, and an assistant left
// open comes back minimised on the next page (a reload included), not over 'Starta en chatt'.
for (const size of PHONE_SIZES) {
  test(`at ${size.width}x${size.height} the open assistant leaves 'Starta en chatt' in reach, and comes back minimised`, async ({
    browser,
    request,
  }, testInfo) => {
    const context = await browser.newContext({ viewport: size, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    const chat = new ChildChatPage(page);
    const assistant = new AssistantPanel(page);
    await chat.logIn(await registerChild(request, `assistent${size.width}`));
    await expect(chat.startButton).toBeVisible();

    await assistant.launcher.tap();
    await expect(assistant.panel).toBeVisible();
    const sheet = (await assistant.panel.boundingBox())!;
    expect(sheet.height, 'the sheet leaves the top of the screen to the page').toBeLessThanOrEqual(
      size.height * 0.6 + 1,
    );
    // The child moves to it (Tab, or the browser's find): it comes above the sheet.
    const padding = await page.evaluate(() => getComputedStyle(document.body).paddingBottom);
    expect(parseFloat(padding), 'the page has room to scroll above the sheet').toBeGreaterThanOrEqual(
      sheet.height - 1,
    );
    await chat.startButton.evaluate((el) => el.scrollIntoView({ block: 'nearest' }));
    await expectInViewAndReachable(chat.startButton, "'Starta en chatt' with the assistant open");
    await keepScreenshot(page, testInfo, `assistant-open-${size.width}x${size.height}.png`);

    // Left open, it comes back minimised: the page is the child's again, the header opens it.
    await page.reload();
    await expect(chat.startButton).toBeVisible();
    await expect(assistant.headerToggle).toHaveAttribute('aria-pressed', 'false');
    await expect(assistant.panel).toBeHidden();
    await chat.startButton.evaluate((el) => el.scrollIntoView({ block: 'nearest' }));
    await expectInViewAndReachable(chat.startButton, "'Starta en chatt' after a reload");
    expect(await assistant.stateCookie()).toBe('Minimized');
    await assistant.headerToggle.tap();
    await expect(assistant.panel).toBeVisible();
    await context.close();
  });
}
