import type { Locator, Page } from '@playwright/test';
import { AppPage } from './app-page.ts';

export interface NewAccount {
  username: string;
  password: string;
  birthYear: string;
  gender: 'Tjej' | 'Kille' | 'Icke-binär' | 'Vill inte välja';
}

/** SPEC §2 /skapa-konto: the registration form. */
export class CreateAccountPage extends AppPage {
  readonly heading: Locator;
  readonly form: Locator;
  readonly username: Locator;
  readonly usernameStatus: Locator;
  readonly password: Locator;
  readonly repeatPassword: Locator;
  readonly birthYear: Locator;
  readonly gender: Locator;
  readonly consent: Locator;
  readonly submit: Locator;
  readonly alerts: Locator;

  constructor(page: Page) {
    super(page);
    this.heading = page.getByRole('heading', { level: 1, name: 'Skapa konto' });
    this.form = page.getByRole('form', { name: 'Skapa konto' });
    this.username = this.form.getByLabel('Användarnamn', { exact: true });
    this.usernameStatus = this.form.getByText(/^Användarnamnet är (ledigt|upptaget)\.$/);
    this.password = this.form.getByLabel('Lösenord', { exact: true });
    this.repeatPassword = this.form.getByLabel('Upprepa lösenord', { exact: true });
    this.birthYear = this.form.getByLabel('Födelseår', { exact: true });
    this.gender = this.form.getByRole('radiogroup', { name: 'Kön' });
    this.consent = this.form.getByRole('checkbox');
    this.submit = this.form.getByRole('button', { name: /^(Skapa konto|Skapar konto\.\.\.)$/ });
    this.alerts = this.form.getByRole('alert');
  }

  async goto(style = 'mail') {
    await this.page.goto(`/skapa-konto?style=${style}`);
    await this.heading.waitFor();
  }

  async fill(account: NewAccount) {
    await this.username.fill(account.username);
    await this.password.fill(account.password);
    await this.repeatPassword.fill(account.password);
    await this.birthYear.selectOption(account.birthYear);
    await this.gender.getByLabel(account.gender).check();
    await this.consent.check();
  }
}
