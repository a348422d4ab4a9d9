import type { Locator, Page } from '@playwright/test';
import { MyPagesPage } from './my-pages-page.ts';

/** My pages with the child's mail threads and chat history (SPEC §2 /mina-sidor). */
export class MyConversationsPage extends MyPagesPage {
  readonly mail: Locator;
  readonly newPostLink: Locator;
  readonly threads: Locator;
  readonly history: Locator;
  readonly historyItems: Locator;

  constructor(page: Page) {
    super(page);
    this.mail = page.getByRole('region', { name: 'Mina meddelanden' });
    this.newPostLink = this.mail.getByRole('link', { name: 'Skriv ett nytt meddelande' });
    this.threads = this.mail.getByRole('list', { name: 'Mina meddelanden' }).getByRole('listitem');
    this.history = page.locator('#historik');
    this.historyItems = this.history.getByRole('list', { name: 'Chatthistorik' }).getByRole('listitem');
  }

  thread(subject: string): Locator {
    return this.threads.filter({ has: this.page.getByRole('link', { name: subject, exact: true }) });
  }

  async openThread(subject: string) {
    await this.thread(subject).getByRole('link', { name: subject, exact: true }).click();
  }

  /** Opens the newest finished chat in the historic chat window. */
  async openNewestChat() {
    await this.historyItems
      .first()
      .getByRole('button', { name: /^Chatt från \d{4}-\d{2}-\d{2}$/ })
      .click();
  }
}
