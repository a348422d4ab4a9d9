import type { Page } from '@playwright/test';
import { AppPage } from './app-page.ts';

export class StartPage extends AppPage {
  constructor(page: Page) {
    super(page);
  }

  async goto() {
    await this.page.goto('/');
    await this.page.getByRole('heading', { level: 1 }).waitFor();
  }
}
