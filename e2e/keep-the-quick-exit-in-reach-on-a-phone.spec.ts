import { registerChild } from '../harness/actors/child-account.ts';
import { ChildChatPage } from '../harness/page-models/child-chat-page.ts';
import { PHONE_SIZES, expectInViewAndReachable, expectNoSidewaysScroll } from './support/small-screens.ts';
import { expect, test } from './support/test.ts';

// 'Lämna sidan' stays at the top of a phone's screen while the page scrolls: the sticky header, hidden
// on the way down and back on the way up, stops under it and never covers it.
for (const size of PHONE_SIZES) {
  test(`at ${size.width}x${size.height} neither way of scrolling hides 'Lämna sidan' under the header`, async ({
    browser,
    request,
  }) => {
    const context = await browser.newContext({ viewport: size, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    const chat = new ChildChatPage(page);
    await chat.logIn(await registerChild(request, `lamna${size.width}`));
    const leave = page.getByRole('button', { name: 'Lämna sidan' });
    await expectInViewAndReachable(leave, "'Lämna sidan' at the top of the page");
    await expectNoSidewaysScroll(page);

    // Down to the end of the page: the header hides; then a little way back up: it returns.
    // The strip around 'Lämna sidan', and the header's edges on screen.
    const stripHeight = await leave.evaluate((el) => el.parentElement!.getBoundingClientRect().height);
    const headerEdges = () =>
      chat.header.evaluate((el) => {
        const { top, bottom } = el.getBoundingClientRect();
        return { top, bottom };
      });
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    expect(await page.evaluate(() => window.scrollY), 'the page scrolls past the header').toBeGreaterThan(64);
    // Hidden: the header has slid up behind the strip.
    await expect.poll(async () => (await headerEdges()).bottom).toBeLessThanOrEqual(stripHeight + 1);
    await expect(async () => expectInViewAndReachable(leave, "'Lämna sidan' scrolled down")).toPass();
    await page.mouse.wheel(0, -120);
    // Back: the header stops right under the strip.
    await expect.poll(async () => Math.round((await headerEdges()).top)).toBe(Math.round(stripHeight));
    await expect(async () => {
      await expectInViewAndReachable(leave, "'Lämna sidan' scrolled back up");
      await expectInViewAndReachable(chat.logoutButton, "the header's 'Logga ut' scrolled back up");
    }).toPass();
    await context.close();
  });
}
