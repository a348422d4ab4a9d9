import type { Locator, Page } from '@playwright/test';
import { AppPage } from './app-page.ts';

/** '/mina-sidor/inlagg/:id': one mail thread with its reply form. */
export class ThreadPage extends AppPage {
  readonly main: Locator;
  readonly heading: Locator;
  readonly messages: Locator;
  readonly reply: Locator;
  readonly send: Locator;

  constructor(page: Page) {
    super(page);
    this.main = page.getByRole('main');
    this.heading = this.main.getByRole('heading', { level: 1 });
    this.messages = this.main.getByRole('list', { name: 'Meddelanden' }).getByRole('listitem');
    const form = this.main.getByRole('form', { name: 'Svara' });
    this.reply = form.getByLabel('Ditt svar');
    this.send = form.getByRole('button', { name: 'Skicka svar' });
  }

  /** The thread's id from the url. */
  id(): number {
    const match = /\/mina-sidor\/inlagg\/(\d+)$/.exec(new URL(this.page.url()).pathname);
    if (!match) throw new Error(`not a thread url: ${this.page.url()}`);
    return Number(match[1]);
  }

  message(text: string): Locator {
    return this.messages.filter({ hasText: text });
  }

  async answer(text: string) {
    await this.reply.fill(text);
    await this.send.click();
  }
}
