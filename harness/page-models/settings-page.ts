import type { Locator, Page } from '@playwright/test';
import { AppPage } from './app-page.ts';

/** SPEC §2 /installningar: change password and delete account. */
export class SettingsPage extends AppPage {
  readonly heading: Locator;
  readonly passwordForm: Locator;
  readonly currentPassword: Locator;
  readonly newPassword: Locator;
  readonly repeatPassword: Locator;
  readonly changePassword: Locator;
  readonly passwordAlerts: Locator;
  readonly deleteAccountButton: Locator;
  readonly deleteDialog: Locator;

  constructor(page: Page) {
    super(page);
    this.heading = page.getByRole('heading', { level: 1, name: 'Inställningar' });
    this.passwordForm = page.getByRole('form', { name: 'Byt lösenord' });
    this.currentPassword = this.passwordForm.getByLabel('Nuvarande lösenord');
    this.newPassword = this.passwordForm.getByLabel('Nytt lösenord', { exact: true });
    this.repeatPassword = this.passwordForm.getByLabel('Upprepa nytt lösenord');
    this.changePassword = this.passwordForm.getByRole('button', {
      name: /^(Byt lösenord|Byter lösenord\.\.\.)$/,
    });
    this.passwordAlerts = this.passwordForm.getByRole('alert');
    this.deleteAccountButton = page.getByRole('button', { name: 'Ta bort mitt konto' });
    this.deleteDialog = page.getByRole('dialog', { name: 'Ta bort ditt konto?' });
  }

  async goto() {
    await this.page.goto('/installningar');
    await this.heading.waitFor();
  }

  async changePasswordTo(current: string, next: string, repeat = next) {
    await this.currentPassword.fill(current);
    await this.newPassword.fill(next);
    await this.repeatPassword.fill(repeat);
    await this.changePassword.click();
  }
}
