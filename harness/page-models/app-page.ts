import type { Locator, Page } from '@playwright/test';
import { LoginPage } from './login-page.ts';

/** What every screen shares: the page header (SPEC §2 Page header) and the login modal. */
export class AppPage {
  readonly header: Locator;
  readonly loginButton: Locator;
  readonly logoutButton: Locator;
  readonly loginDialog: Locator;

  constructor(readonly page: Page) {
    this.header = page.getByRole('banner');
    this.loginButton = this.header.getByRole('button', { name: 'Logga in' });
    this.logoutButton = this.header.getByRole('button', { name: 'Logga ut' });
    this.loginDialog = page.getByRole('dialog', { name: 'Logga in' });
  }

  /** The login form inside the login modal. */
  modalLoginForm(): LoginPage {
    return new LoginPage(this.loginDialog);
  }

  async openLoginModal(): Promise<LoginPage> {
    await this.loginButton.click();
    return this.modalLoginForm();
  }

  async logOut() {
    await this.logoutButton.click();
  }
}
/** The demo account the server seeds (ARCHITECTURE.md Demo data). */
export const DEMO_USER = { username: 'demo', password: 'demo-losenord' } as const;
export const DEMO_PERSONAL_CODE = 'DEMOKOD-0001';
