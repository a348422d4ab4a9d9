import { expect, type Cookie, type Locator, type Page } from '@playwright/test';
import { AppPage } from './app-page.ts';

/** The virtual assistant: the launcher, the header toggle and the panel. */
export class AssistantPanel extends AppPage {
  readonly launcher: Locator;
  readonly panel: Locator;
  readonly heading: Locator;
  readonly minimizeButton: Locator;
  readonly headerToggle: Locator;
  readonly log: Locator;
  readonly question: Locator;
  readonly send: Locator;
  readonly emergency: Locator;
  readonly share: Locator;

  constructor(page: Page) {
    super(page);
    this.launcher = page.getByRole('button', { name: 'Fråga assistenten' });
    this.panel = page.getByRole('complementary', { name: 'Assistenten' });
    this.heading = this.panel.getByRole('heading', { name: 'Assistenten' });
    this.minimizeButton = this.panel.getByRole('button', { name: 'Minimera assistenten' });
    this.headerToggle = this.header.getByRole('button', { name: /den virtuella assistenten$/ });
    this.log = this.panel.getByRole('log', { name: 'Samtal med assistenten' });
    this.question = this.panel.getByRole('textbox', { name: 'Skriv en fråga till assistenten' });
    this.send = this.panel.getByRole('button', { name: 'Skicka' });
    this.emergency = this.panel.getByRole('link', { name: 'Är det akut? Ring 112.' });
    this.share = this.panel.getByRole('checkbox', {
      name: 'Vill du att kuratorn får se vad du skrev till assistenten?',
    });
  }

  async open() {
    await this.launcher.click();
    await expect(this.panel).toBeVisible();
  }

  topic(title: string): Locator {
    return this.panel.getByRole('button', { name: title, exact: true });
  }

  async ask(question: string) {
    await this.question.fill(question);
    await this.send.click();
    await expect(this.question).toHaveValue('');
  }

  /** The state the session cookie keeps (SPEC §4), named with the app's prefix (SPEC §9). */
  async stateCookie(prefix: 'web_' | 'pwa_' = 'web_'): Promise<string | undefined> {
    return (await this.stateCookieDetails(prefix))?.value;
  }

  async stateCookieDetails(prefix: 'web_' | 'pwa_' = 'web_'): Promise<Cookie | undefined> {
    const name = `${prefix}assistant-state`;
    return (await this.page.context().cookies()).find((c) => c.name === name);
  }
}
