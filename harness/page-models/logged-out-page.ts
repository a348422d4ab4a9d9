import type { Locator, Page } from '@playwright/test';
import { AppPage } from './app-page.ts';
import { LoginPage } from './login-page.ts';

export class LoggedOutPage extends AppPage {
  readonly heading: Locator;
  readonly sessionExpiredText: Locator;
  readonly loginForm: LoginPage;

  constructor(page: Page) {
    super(page);
    this.heading = page.getByRole('heading', { level: 1, name: 'Du är utloggad' });
    this.sessionExpiredText = page.getByText('Din session har gått ut.');
    this.loginForm = new LoginPage(page.getByRole('main'));
  }

  async goto(query = '') {
    await this.page.goto(`/utloggad${query}`);
    await this.heading.waitFor();
  }
}
