import { expect, test } from './support/test.ts';
import { registerChild } from './actors/child-account.ts';
import { ChildChatPage } from './page-models/child-chat-page.ts';
import { LoggedOutPage } from './page-models/logged-out-page.ts';
import { StartPage } from './page-models/start-page.ts';
import { accessibilityViolations } from './support/accessibility.ts';

for (const width of [320, 1280]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });

    test('the start page has no accessibility violations', async ({ page }) => {
      await new StartPage(page).goto();
      expect(await accessibilityViolations(page)).toEqual([]);
    });

    test('the login form, with its error texts showing, has no accessibility violations', async ({
      page,
    }) => {
      const start = new StartPage(page);
      await start.goto();
      const login = await start.openLoginModal();
      await login.pressSubmit();
      await expect(login.alerts).toHaveCount(2);
      expect(await accessibilityViolations(page)).toEqual([]);
    });

    test('the signed-in start page and the chat window in the queue have no accessibility violations', async ({
      page,
      request,
    }) => {
      const chat = new ChildChatPage(page);
      await chat.logIn(await registerChild(request, 'axe'));
      await expect(chat.startButton).toBeEnabled();
      expect(await accessibilityViolations(page)).toEqual([]);
      await chat.startChat();
      await chat.expectInQueue();
      expect(await accessibilityViolations(page)).toEqual([]);
      await chat.leaveQueue();
      await chat.expectEnded();
      expect(await accessibilityViolations(page)).toEqual([]);
    });

    test('the logged-out page has no accessibility violations', async ({ page }) => {
      await new LoggedOutPage(page).goto('?error=session_expired');
      expect(await accessibilityViolations(page)).toEqual([]);
    });
  });
}
