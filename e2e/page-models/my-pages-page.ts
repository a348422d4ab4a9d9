import type { Locator, Page } from '@playwright/test';
import { AppPage } from './app-page.ts';

export class MyPagesPage extends AppPage {
  readonly heading: Locator;
  readonly username: Locator;

  constructor(page: Page) {
    super(page);
    this.heading = page.getByRole('heading', { level: 1, name: 'Mina sidor' });
    this.username = page.getByTestId('my-pages-username');
  }

  async goto() {
    await this.page.goto('/mina-sidor');
  }
}
