import { expect, type Locator, type Page } from '@playwright/test';

/**
 * SPEC §2 Chat window (group): the full-screen window over the meeting detail, named after the
 * meeting's subject, and the bar that stands for it while it is minimised.
 */
export class GroupChatWindow {
  readonly dialog: Locator;
  /** The header's status line ('Chatten börjar strax', 'Chatt live …', 'Chatten är avslutad'). */
  readonly status: Locator;
  readonly messages: Locator;
  readonly input: Locator;
  readonly sendButton: Locator;
  readonly counter: Locator;
  readonly minimizeButton: Locator;
  readonly leaveButton: Locator;
  readonly closeButton: Locator;
  /** The minimised window: one button whose label tells what is going on. */
  readonly minimizedBar: Locator;
  readonly confirm: Locator;

  constructor(
    readonly page: Page,
    subject: string,
  ) {
    this.dialog = page.getByRole('dialog', { name: subject });
    // The header's line comes first; the connection notice, when it shows, is a second status.
    this.status = this.dialog.getByRole('status').first();
    this.messages = this.dialog.getByRole('list', { name: 'Meddelanden' });
    this.input = this.dialog.getByRole('textbox', { name: 'Meddelande' });
    this.sendButton = this.dialog.getByRole('button', { name: 'Skicka', exact: true });
    this.counter = this.dialog.getByText(/^Antal tecken: \d+ av \d+$/);
    this.minimizeButton = this.dialog.getByRole('button', { name: 'Minimera chatten' });
    this.leaveButton = this.dialog.getByRole('button', { name: 'Lämna chatten' });
    this.closeButton = this.dialog.getByRole('button', { name: 'Stäng' });
    this.minimizedBar = page.getByRole('button', {
      name: /^(Nya meddelanden!|Aktiv chatt|Chattkö|Chatten är avslutad)$/,
    });
    this.confirm = page.getByRole('dialog', { name: 'Bekräfta' });
  }

  /** The message bubbles that contain this text. */
  message(text: string): Locator {
    return this.messages.getByRole('listitem').filter({ hasText: text });
  }

  /** The line under the messages that says who is writing. */
  typing(name: string): Locator {
    return this.dialog.getByText(new RegExp(`${name}.*skriver`));
  }

  /** Writes a message, sends it with the button and waits until it shows in the list. */
  async send(text: string) {
    await this.input.fill(text);
    await this.sendButton.click();
    await expect(this.message(text)).toBeVisible();
  }

  async minimize() {
    await this.minimizeButton.click();
    await expect(this.minimizedBar).toBeVisible();
  }

  async restore() {
    await this.minimizedBar.click();
    await expect(this.dialog).toBeVisible();
  }

  /** 'Lämna chatten', then yes to the question it asks ('Ja, stäng ner' in a running chat, else 'Ja, lämna'). */
  async leave() {
    await this.leaveButton.click();
    await this.confirm.getByRole('button', { name: /^Ja, (lämna|stäng ner)$/ }).click();
    await expect(this.dialog).toBeHidden();
  }

  /** The leader ended the chat: the status line and the last message say so; nothing more can be written. */
  async expectEnded(options?: { timeout: number }) {
    await expect(this.status).toHaveText('Chatten är avslutad', options);
    await expect(this.messages.getByRole('listitem').last()).toHaveText('Chatten är avslutad');
    await expect(this.input).toBeDisabled();
  }
}
