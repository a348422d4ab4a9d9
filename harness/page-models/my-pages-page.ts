import type { Locator, Page } from '@playwright/test';
import { AppPage } from './app-page.ts';

export class MyPagesPage extends AppPage {
  readonly heading: Locator;
  readonly username: Locator;
  readonly notifications: Locator;
  readonly notificationItems: Locator;
  readonly contactMessages: Locator;
  readonly contactMessageItems: Locator;

  constructor(page: Page) {
    super(page);
    this.heading = page.getByRole('heading', { level: 1, name: 'Mina sidor' });
    this.username = page.getByTestId('my-pages-username');
    this.notifications = page.getByRole('region', { name: 'Notiser', exact: true });
    this.notificationItems = this.notifications.getByRole('listitem');
    this.contactMessages = page.getByRole('region', { name: 'Meddelanden från oss', exact: true });
    this.contactMessageItems = this.contactMessages.getByRole('listitem');
  }

  async goto() {
    await this.page.goto('/mina-sidor');
  }
}
