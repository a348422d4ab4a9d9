import { expect, type Locator, type Page } from '@playwright/test';

/** The counsellor's part of the staff console: the queue per channel and the open conversations. */
export class ConsoleCounsellorPage {
  readonly chatQueue: Locator;
  readonly mailQueue: Locator;
  readonly takeNextButton: Locator;

  constructor(readonly page: Page) {
    this.chatQueue = page.getByRole('list', { name: 'Chatt', exact: true });
    this.mailQueue = page.getByRole('list', { name: 'Mejl', exact: true });
    this.takeNextButton = page.getByRole('button', { name: 'Ta nästa' });
  }

  /** The queue entry of one chat (entries name their conversation: 'Chatt nr {id}'). */
  queueEntry(conversationId: number): Locator {
    return this.chatQueue
      .getByRole('listitem')
      .filter({ hasText: new RegExp(`Chatt nr ${conversationId}(?!\\d)`) });
  }

  /** The open chat panel of one conversation. */
  chat(conversationId: number) {
    const panel = this.page.getByRole('article', { name: `Chatt nr ${conversationId}`, exact: true });
    const messages = panel.getByRole('list', { name: 'Meddelanden' });
    return {
      panel,
      messages,
      status: panel.getByTestId('conversation-status'),
      /** 'X minuter kvar' during the chat's last 10 minutes. */
      timeLeft: panel.getByTestId('chat-time-left'),
      input: panel.getByRole('textbox', { name: 'Meddelande' }),
      typing: panel.getByText('Barnet skriver'),
      message: (text: string) =>
        messages.getByRole('listitem').filter({ has: this.page.getByText(text, { exact: true }) }),
      send: async (text: string) => {
        await panel.getByRole('textbox', { name: 'Meddelande' }).fill(text);
        await panel.getByRole('button', { name: 'Skicka' }).click();
      },
      resolve: async () => {
        await panel.getByRole('button', { name: 'Avsluta chatten' }).click();
        const dialog = this.page.getByRole('dialog', { name: 'Avsluta chatten?' });
        await expect(dialog).toBeVisible();
        await dialog.getByRole('button', { name: 'Ja, avsluta' }).click();
      },
    };
  }
}
