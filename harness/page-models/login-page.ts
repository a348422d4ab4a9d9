import type { Locator } from '@playwright/test';

/** The login form of SPEC §2, wherever it is shown (standalone, inline or in a modal). */
export class LoginPage {
  readonly form: Locator;
  readonly username: Locator;
  readonly password: Locator;
  readonly personalCode: Locator;
  readonly submit: Locator;
  readonly registerLink: Locator;
  readonly alerts: Locator;
  /** Shared-device mode: nothing of the session kept on the device. */
  readonly sharedDevice: Locator;
  /** 'Glömt lösenord?': a disclosure button under the password field. */
  readonly forgotPassword: Locator;

  constructor(scope: Locator) {
    this.form = scope.getByRole('form', { name: 'Logga in' });
    this.username = this.form.getByLabel('Användarnamn');
    this.password = this.form.getByLabel('Lösenord');
    this.personalCode = this.form.getByLabel('Personlig kod');
    this.submit = this.form.getByRole('button', { name: /^(Logga in|Loggar in\.\.\.)$/ });
    this.registerLink = this.form.getByRole('link', { name: 'Har du inget konto? Skapa här' });
    this.alerts = this.form.getByRole('alert');
    this.sharedDevice = this.form.getByRole('checkbox', { name: 'Jag använder en delad mobil eller dator' });
    this.forgotPassword = this.form.getByRole('button', { name: 'Glömt lösenord?' });
  }

  /** What 'Glömt lösenord?' shows once opened (the element its button controls). */
  async forgotPasswordAnswer(): Promise<Locator> {
    const id = await this.forgotPassword.getAttribute('aria-controls');
    if (!id) throw new Error("'Glömt lösenord?' controls nothing");
    return this.form.locator(`[id="${id}"]`);
  }

  async logIn(username: string, password: string, options: { sharedDevice?: boolean } = {}) {
    if (options.sharedDevice) await this.sharedDevice.check();
    await this.username.fill(username);
    await this.password.fill(password);
    await this.submit.click();
  }

  /**
   * Presses the submit button from the keyboard. While the form is invalid the button is only
   * aria-disabled (so a press still marks every field touched), and Playwright will not click it.
   */
  async pressSubmit() {
    await this.submit.focus();
    await this.submit.press('Enter');
  }

  async logInWithCode(code: string) {
    await this.personalCode.fill(code);
    await this.submit.click();
  }
}
