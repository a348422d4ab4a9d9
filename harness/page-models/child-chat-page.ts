import { expect, type Locator, type Page } from '@playwright/test';
import type { ChildAccount } from '../actors/child-account.ts';
import { AppPage } from './app-page.ts';

/** The child app's start page and one-to-one chat window (SPEC §2 Chat window, §4 Conversation). */
export class ChildChatPage extends AppPage {
  readonly dialog: Locator;
  readonly status: Locator;
  /** 'X minuter kvar' in the header during a live chat's last 10 minutes. */
  readonly timeLeft: Locator;
  readonly messages: Locator;
  readonly input: Locator;
  readonly startButton: Locator;
  readonly openButton: Locator;
  readonly minimizedBar: Locator;

  constructor(page: Page) {
    super(page);
    this.dialog = page.getByRole('dialog', { name: 'Chatt' });
    this.status = this.dialog.getByTestId('chat-status');
    this.timeLeft = this.dialog.getByTestId('chat-time-left');
    this.messages = this.dialog.getByRole('list', { name: 'Meddelanden' });
    this.input = this.dialog.getByRole('textbox', { name: 'Meddelande' });
    this.startButton = page.getByRole('button', { name: 'Starta en chatt' });
    this.openButton = page.getByRole('button', { name: 'Öppna chatten' });
    this.minimizedBar = page.getByRole('button', {
      name: /^(Nya meddelanden!|Köplats: \d+|Chattkö|Chatten är avslutad|Aktiv chatt)$/,
    });
  }

  /** Opens the start page and logs in through the header's login modal. */
  async logIn(account: ChildAccount) {
    await this.page.goto('/');
    await (await this.openLoginModal()).logIn(account.username, account.password);
    await expect(this.logoutButton).toBeVisible();
  }

  async startChat() {
    await this.startButton.click();
    await expect(this.dialog).toBeVisible();
  }

  async expectInQueue(position?: number) {
    await expect(this.status).toContainText('Du väntar på din tur');
    if (position !== undefined) await expect(this.status).toContainText(`Köplats: ${position}`);
  }

  async expectActive() {
    await expect(this.status).toContainText('Chatt live');
  }

  async send(text: string) {
    await this.input.fill(text);
    await this.input.press('Enter');
  }

  /** A message bubble with exactly this text. */
  message(text: string): Locator {
    return this.messages.getByRole('listitem').filter({ has: this.page.getByText(text, { exact: true }) });
  }

  async expectMessage(text: string) {
    await expect(this.message(text)).toBeVisible();
  }

  async expectEnded() {
    await expect(this.status).toHaveText('Chatten är avslutad');
    await expect(this.messages.getByRole('listitem').last()).toHaveText('Chatten är avslutad');
  }

  async leaveQueue() {
    await this.dialog.getByRole('button', { name: 'Lämna kön' }).click();
    await this.page
      .getByRole('dialog', { name: 'Bekräfta' })
      .getByRole('button', { name: 'Ja, lämna' })
      .click();
  }

  async endChat() {
    await this.dialog.getByRole('button', { name: 'Avsluta', exact: true }).click();
    await this.page
      .getByRole('dialog', { name: 'Bekräfta' })
      .getByRole('button', { name: 'Ja, avsluta' })
      .click();
  }

  async minimize() {
    await this.dialog.getByRole('button', { name: 'Minimera chatten' }).click();
  }

  async close() {
    await this.dialog.getByRole('button', { name: 'Stäng' }).click();
  }
}
