import { expect, test, type Page } from './support/test.ts';
import { registerChild } from '../harness/actors/child-account.ts';
import { ChildChatPage } from '../harness/page-models/child-chat-page.ts';

// A child whose system asks for less motion (prefers-reduced-motion: reduce) meets no animation or
// transition anywhere; without that wish the app's motion is there (so the check can fail).

interface Moving {
  element: string;
  transition: string;
  animation: string;
}

/** Every element on the page (pseudo-elements too) whose transition or animation takes time. */
function movingElements(page: Page): Promise<Moving[]> {
  return page.evaluate(() => {
    const seconds = (list: string) =>
      Math.max(
        ...list.split(',').map((d) => (d.trim().endsWith('ms') ? parseFloat(d) / 1000 : parseFloat(d))),
      );
    const found: Moving[] = [];
    for (const el of document.querySelectorAll('*')) {
      for (const pseudo of [null, '::before', '::after']) {
        const style = getComputedStyle(el, pseudo);
        const transition =
          style.transitionProperty !== 'none'
            ? seconds(style.transitionDuration) + seconds(style.transitionDelay)
            : 0;
        const animation =
          style.animationName !== 'none'
            ? seconds(style.animationDuration) + seconds(style.animationDelay)
            : 0;
        if (transition > 0 || animation > 0)
          found.push({
            element: `${el.tagName.toLowerCase()}.${el.className}${pseudo ?? ''}`,
            transition: `${style.transitionProperty} ${style.transitionDuration}`,
            animation: `${style.animationName} ${style.animationDuration}`,
          });
      }
    }
    return found;
  });
}

/** The busy wheel of the page that waits for /config.json, held until `release` is called. */
async function holdConfig(page: Page): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((done) => (release = done));
  await page.route('**/config.json', async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

for (const reducedMotion of ['reduce', 'no-preference'] as const) {
  test(`with prefers-reduced-motion: ${reducedMotion} the spinner, the header, a modal and the chat window ${
    reducedMotion === 'reduce' ? 'do not move' : 'move as designed'
  }`, async ({ page, request }) => {
    await page.emulateMedia({ reducedMotion });
    const release = await holdConfig(page);
    await page.goto('/', { waitUntil: 'commit' });
    await expect(page.getByRole('status').filter({ hasText: 'Laddar...' })).toBeVisible();
    // The loading screen's text is in the HTML; its look (and motion) comes with the stylesheet,
    // which may still be on its way at 'commit'. Read the motion once it applies.
    await page.waitForFunction(() => {
      const links = [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')];
      return links.length > 0 && links.every((link) => link.sheet !== null);
    });
    const whileLoading = await movingElements(page);
    release();

    const chat = new ChildChatPage(page);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const startPage = await movingElements(page);
    const login = await chat.openLoginModal();
    const modal = await movingElements(page);
    const account = await registerChild(request, 'stilla');
    await login.logIn(account.username, account.password);
    await expect(chat.logoutButton).toBeVisible();
    await chat.startChat();
    await chat.expectInQueue();
    const chatWindow = await movingElements(page);

    if (reducedMotion === 'reduce') {
      expect({ whileLoading, startPage, modal, chatWindow }).toEqual({
        whileLoading: [],
        startPage: [],
        modal: [],
        chatWindow: [],
      });
    } else {
      // The spinner's wheel turns; the header slides away on scrolling.
      expect(whileLoading.map((m) => m.animation)).toContainEqual(expect.stringMatching(/ 0\.8s$/));
      expect(startPage.map((m) => m.element)).toContainEqual(expect.stringMatching(/^header\./));
    }
    await chat.leaveQueue();
    await chat.expectEnded();
  });
}
