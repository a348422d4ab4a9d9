import { expect, type Locator, type Page } from '@playwright/test';

/** 'Moderering' in the staff console (Peers): the queue of posts and replies, and staff replies. */
export class ConsoleModerationPage {
  readonly queue: Locator;
  readonly status: Locator;

  constructor(readonly page: Page) {
    this.queue = page.getByRole('list', { name: 'Väntar på granskning' });
    this.status = page.getByRole('status').first();
  }

  async open() {
    await this.page
      .getByRole('navigation', { name: 'Delar av konsolen' })
      .getByRole('link', { name: 'Moderering' })
      .click();
    await expect(this.page.getByRole('heading', { name: 'Väntar på granskning' })).toBeVisible();
  }

  /** The queue entry of a post (by subject) or of a reply (by its text). */
  entry(text: string): Locator {
    return this.queue.getByRole('listitem').filter({ hasText: text });
  }

  async approve(text: string) {
    await this.entry(text)
      .getByRole('button', { name: /^Godkänn/ })
      .click();
    await expect(this.entry(text)).toHaveCount(0);
  }

  async reject(text: string, reason: string) {
    const entry = this.entry(text);
    await entry.getByRole('button', { name: /^Avvisa/ }).click();
    await entry.getByRole('textbox', { name: /Anledning/ }).fill(reason);
    await entry.getByRole('button', { name: 'Skicka avvisning' }).click();
    await expect(entry).toHaveCount(0);
  }

  async replyAsStaff(subject: string, text: string) {
    await this.page.getByRole('combobox', { name: 'Inlägg att svara på' }).selectOption({ label: subject });
    await this.page.getByRole('textbox', { name: 'Ditt svar' }).fill(text);
    await this.page.getByRole('button', { name: 'Skicka svar' }).click();
    await expect(this.page.getByText('Svaret är publicerat.')).toBeVisible();
  }
}
