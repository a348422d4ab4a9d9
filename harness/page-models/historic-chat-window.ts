import type { Locator, Page } from '@playwright/test';

/** SPEC §2 Historic chat window of a one-to-one chat: back, favourite star, trash, footer. */
export class HistoricChatWindow {
  readonly dialog: Locator;
  readonly back: Locator;
  readonly star: Locator;
  readonly trash: Locator;
  readonly footer: Locator;
  readonly confirm: Locator;

  constructor(readonly page: Page) {
    this.dialog = page.getByRole('dialog', { name: 'Chatthistorik' });
    this.back = this.dialog.getByRole('button', { name: 'Tillbaka' });
    this.star = this.dialog.getByRole('button', { name: 'Favorit' });
    this.trash = this.dialog.getByRole('button', { name: 'Ta bort chatten' });
    this.footer = this.dialog.getByText(/^Chatt från \d{4}-\d{2}-\d{2}$/);
    this.confirm = page.getByRole('dialog', { name: 'Ta bort chatten' });
  }

  message(text: string): Locator {
    return this.dialog.getByRole('listitem').filter({ hasText: text });
  }
}
