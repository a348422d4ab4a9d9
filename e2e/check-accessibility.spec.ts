import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { LoggedOutPage } from './page-models/logged-out-page.ts';
import { StartPage } from './page-models/start-page.ts';

async function violations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target).join(', ')})`);
}

for (const width of [320, 1280]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });

    test('the start page has no accessibility violations', async ({ page }) => {
      await new StartPage(page).goto();
      expect(await violations(page)).toEqual([]);
    });

    test('the login form, with its error texts showing, has no accessibility violations', async ({
      page,
    }) => {
      const start = new StartPage(page);
      await start.goto();
      const login = await start.openLoginModal();
      await login.pressSubmit();
      await expect(login.alerts).toHaveCount(2);
      expect(await violations(page)).toEqual([]);
    });

    test('the logged-out page has no accessibility violations', async ({ page }) => {
      await new LoggedOutPage(page).goto('?error=session_expired');
      expect(await violations(page)).toEqual([]);
    });
  });
}
