import type { Locator, Page } from '@playwright/test';
import { AppPage } from './app-page.ts';

/** The meeting detail '/tillfalle/:id' (SPEC §2 Meeting detail). */
export class MeetingDetailPage extends AppPage {
  readonly main: Locator;
  readonly title: Locator;
  readonly tasks: Locator;
  readonly privateMessage: Locator;
  readonly participants: Locator;
  readonly openChatButton: Locator;
  readonly chatWindow: Locator;

  constructor(page: Page) {
    super(page);
    this.main = page.getByRole('main');
    this.title = this.main.getByRole('heading', { level: 1 });
    this.tasks = this.main.locator('summary', { hasText: 'Uppgifter' });
    this.privateMessage = this.main.locator('summary', {
      hasText: 'Skicka ett privat meddelande till gruppledarna på',
    });
    this.participants = this.main.locator('summary', { hasText: 'Deltagare' });
    this.openChatButton = this.main.getByRole('button', { name: 'Öppna chatt' });
    this.chatWindow = page.getByRole('dialog');
  }

  badge(text: string): Locator {
    return this.main.getByText(text, { exact: true });
  }
}
