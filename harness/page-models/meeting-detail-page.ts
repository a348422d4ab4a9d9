import { expect, type Locator, type Page } from '@playwright/test';
import { AppPage } from './app-page.ts';
import { GroupChatWindow } from './group-chat-window.ts';

/** The meeting detail '/tillfalle/:id' (SPEC §2 Meeting detail). */
export class MeetingDetailPage extends AppPage {
  readonly main: Locator;
  readonly title: Locator;
  readonly tasks: Locator;
  readonly privateMessage: Locator;
  readonly participants: Locator;
  readonly openChatButton: Locator;
  readonly showHistoryButton: Locator;

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
    this.showHistoryButton = this.main.getByRole('button', { name: 'Se chatthistorik' });
  }

  /** Opens '/tillfalle/:id' from its address, its title shown. */
  static async open(page: Page, meetingId: number, subject: string): Promise<MeetingDetailPage> {
    await page.goto(`/tillfalle/${meetingId}`);
    const detail = new MeetingDetailPage(page);
    await expect(detail.title).toHaveText(subject);
    return detail;
  }

  badge(text: string): Locator {
    return this.main.getByText(text, { exact: true });
  }

  /** The meeting's group chat window; it is named after the meeting's subject. */
  chatWindow(subject: string): GroupChatWindow {
    return new GroupChatWindow(this.page, subject);
  }

  /**
   * The meeting's group chat window, open. SPEC §2 opens it by itself once the chat row says it is
   * active; until that row arrives 'Öppna chatt' shows, and a click on it may meet the window
   * opening by itself (the button then leaves mid-click). Either way the window ends up open.
   */
  async openChat(subject: string): Promise<GroupChatWindow> {
    const chat = this.chatWindow(subject);
    await expect(async () => {
      if (!(await chat.dialog.isVisible())) await this.openChatButton.click({ timeout: 2_000 });
      await expect(chat.dialog).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 15_000 });
    return chat;
  }

  /** Opens every expandable card: tasks (with the homework upload), private message, participants. */
  async openEverySection() {
    await expect(this.tasks).toBeVisible();
    await this.tasks.click();
    await expect(this.main.getByText('Du har inte skickat in några filer.')).toBeVisible();
    await this.privateMessage.click();
    await this.participants.click();
  }
}
