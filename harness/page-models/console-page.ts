import { expect, type Locator, type Page } from '@playwright/test';

export const COUNSELLOR_LOGIN = { username: 'kurator', password: 'kurator-losenord' } as const;

/** The staff console's frame (/personal): sign-in form, header with name and 'Logga ut', navigation. */
export class ConsolePage {
  readonly signInForm: Locator;
  readonly username: Locator;
  readonly password: Locator;
  readonly submit: Locator;
  readonly alert: Locator;
  readonly header: Locator;
  readonly signOutButton: Locator;
  readonly nav: Locator;

  constructor(readonly page: Page) {
    this.signInForm = page.locator('form').filter({ has: page.getByRole('heading', { name: 'Logga in' }) });
    this.username = page.getByLabel('Användarnamn');
    this.password = page.getByLabel('Lösenord');
    this.submit = this.signInForm.getByRole('button', { name: /^(Logga in|Loggar in\.\.\.)$/ });
    this.alert = this.signInForm.getByRole('alert');
    this.header = page.getByRole('banner');
    this.signOutButton = this.header.getByRole('button', { name: 'Logga ut' });
    this.nav = page.getByRole('navigation', { name: 'Delar av konsolen' });
  }

  /** Opens a console page and waits until it has rendered (its h1: sign-in form or a screen). */
  async goto(path = '') {
    await this.page.goto(`/personal${path}`);
    await this.page.getByRole('heading', { level: 1 }).first().waitFor();
  }

  async signIn(username: string, password: string) {
    await this.username.fill(username);
    await this.password.fill(password);
    await this.submit.click();
  }

  async signInAsCounsellor() {
    await this.goto();
    await this.signIn(COUNSELLOR_LOGIN.username, COUNSELLOR_LOGIN.password);
    await expect(this.signOutButton).toBeVisible();
  }

  async signOut() {
    await this.signOutButton.click();
    await expect(this.signInForm).toBeVisible();
  }
}
