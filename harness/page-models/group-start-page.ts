import { expect, type Locator, type Page } from '@playwright/test';
import { AppPage, DEMO_PERSONAL_CODE } from './app-page.ts';
import { LoginPage } from './login-page.ts';
import { MeetingDetailPage } from './meeting-detail-page.ts';

/** The group-support start page (SPEC §2 Group-support start page, Meeting list). */
export class GroupStartPage extends AppPage {
  readonly main: Locator;
  readonly inProgress: Locator;
  readonly upcoming: Locator;
  readonly finished: Locator;

  constructor(page: Page) {
    super(page);
    this.main = page.getByRole('main');
    this.inProgress = this.section('Pågående träffar');
    this.upcoming = this.section('Kommande träffar');
    this.finished = this.section('Avslutade träffar');
  }

  section(name: string): Locator {
    return this.main.getByRole('region', { name });
  }

  /** The cards of a section (each a list item with its subject as heading). */
  cards(section: Locator): Locator {
    return section.getByRole('listitem').filter({ has: this.page.getByRole('heading', { level: 4 }) });
  }

  async goto() {
    await this.page.goto('/');
    await this.page.getByRole('heading', { level: 1 }).waitFor();
  }

  /** Opens the detail of the first upcoming meeting through its 'Mer information' link. */
  async openFirstUpcoming() {
    await this.cards(this.upcoming)
      .first()
      .getByRole('link', { name: /^Mer information/ })
      .click();
  }

  /** Opens an upcoming meeting's detail through its card's 'Mer information', its title shown. */
  async openUpcoming(subject: string): Promise<MeetingDetailPage> {
    await this.cards(this.upcoming)
      .filter({ hasText: subject })
      .getByRole('link', { name: /^Mer information/ })
      .click();
    const detail = new MeetingDetailPage(this.page);
    await expect(detail.title).toHaveText(subject);
    return detail;
  }

  async logIn(code: string = DEMO_PERSONAL_CODE) {
    await this.goto();
    await new LoginPage(this.main).logInWithCode(code);
    await this.logoutButton.waitFor();
  }
}
