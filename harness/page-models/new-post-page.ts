import type { Locator, Page } from '@playwright/test';
import { AppPage } from './app-page.ts';

/** '/mina-sidor/nytt-inlagg': a new mail to a counsellor. */
export class NewPostPage extends AppPage {
  readonly heading: Locator;
  readonly form: Locator;
  readonly subject: Locator;
  readonly text: Locator;
  readonly counter: Locator;
  readonly send: Locator;
  readonly alerts: Locator;

  constructor(page: Page) {
    super(page);
    this.heading = page.getByRole('heading', { level: 1, name: 'Nytt meddelande' });
    this.form = page.getByRole('form', { name: 'Nytt meddelande' });
    this.subject = this.form.getByLabel('Ämne');
    this.text = this.form.getByLabel('Meddelande', { exact: true });
    this.counter = this.form.getByText(/^Antal tecken: \d+ av 4000$/);
    this.send = this.form.getByRole('button', { name: /^(Skicka|Skickar\.\.\.)$/ });
    this.alerts = this.form.getByRole('alert');
  }

  async goto() {
    await this.page.goto('/mina-sidor/nytt-inlagg');
  }

  async write(subject: string, text: string) {
    await this.subject.fill(subject);
    await this.text.fill(text);
    await this.send.click();
  }
}
