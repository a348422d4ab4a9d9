import type { Locator, Page } from '@playwright/test';

/** The group leader's part of the staff console at /personal (staff-console/group-leader/). */
export class ConsoleGroupLeaderPage {
  readonly main: Locator;

  constructor(readonly page: Page) {
    this.main = page.getByRole('main');
  }

  async signIn(username = 'gruppledare', password = 'gruppledare-losenord') {
    await this.page.goto('/personal');
    await this.page.getByLabel('Användarnamn').fill(username);
    await this.page.getByLabel('Lösenord').fill(password);
    await this.page.getByRole('button', { name: 'Logga in' }).click();
    await this.main.getByRole('heading', { name: 'Mina grupper' }).waitFor();
  }

  async openGroup(groupName: string) {
    await this.main.getByRole('link', { name: `Öppna ${groupName}` }).click();
    await this.main.getByRole('heading', { level: 1, name: groupName }).waitFor();
  }

  section(name: 'Pågående träffar' | 'Kommande träffar' | 'Avslutade träffar'): Locator {
    return this.main.getByRole('region', { name });
  }

  /** The 'Öppna' link of a meeting in one section of the series' meeting list. */
  meetingIn(
    section: 'Pågående träffar' | 'Kommande träffar' | 'Avslutade träffar',
    subject: string,
  ): Locator {
    return this.section(section).getByRole('link', { name: `Öppna ${subject}` });
  }

  get participants(): Locator {
    return this.main.getByRole('region', { name: 'Deltagare', exact: true });
  }

  /** A participant's row in the participants list, e.g. 'Nova – Ansluten'. */
  participant(name: string): Locator {
    return this.participants.getByRole('listitem').filter({ hasText: name });
  }

  /** Creates a participant; resolves with the personal code shown once. */
  async addParticipant(name: string): Promise<string> {
    await this.participants.getByLabel('Namn').fill(name);
    await this.participants.getByRole('button', { name: 'Skapa deltagare' }).click();
    const code = this.participants.getByTestId('personal-code');
    await code.waitFor();
    return (await code.textContent())?.trim() ?? '';
  }

  /** Fills the new-meeting form ('Ämne', 'Beskrivning', 'Starttid', 'Längd (minuter)') and opens the meeting. */
  async createMeeting(m: { subject: string; description: string; start: Date; minutes: number }) {
    await this.main.getByRole('button', { name: 'Ny träff' }).click();
    const form = this.main.getByRole('form', { name: 'Ny träff' });
    await form.getByLabel('Ämne').fill(m.subject);
    await form.getByLabel('Beskrivning').fill(m.description);
    await form.getByLabel('Starttid').fill(localInput(m.start));
    await form.getByLabel('Längd (minuter)').fill(String(m.minutes));
    await form.getByRole('button', { name: 'Skapa träffen' }).click();
    await this.main.getByRole('heading', { level: 1, name: m.subject }).waitFor();
  }

  get appendices(): Locator {
    return this.main.getByRole('region', { name: 'Bilagor' });
  }

  async uploadAppendix(file: { name: string; mimeType: string; buffer: Buffer }) {
    await this.appendices.getByLabel('Ladda upp bilaga').setInputFiles(file);
  }

  get chat(): Locator {
    return this.main.getByRole('region', { name: 'Gruppchatt' });
  }

  get chatMessages(): Locator {
    return this.chat.getByRole('list', { name: 'Meddelanden' });
  }

  async writeInChat(text: string) {
    await this.chat.getByRole('textbox', { name: 'Meddelande' }).fill(text);
    await this.chat.getByRole('button', { name: 'Skicka' }).click();
  }

  get privateMessages(): Locator {
    return this.main.getByRole('region', { name: 'Privata meddelanden och uppgifter' });
  }

  async startChat() {
    await this.main.getByRole('button', { name: 'Starta gruppchatten' }).click();
  }

  async endChat() {
    await this.main.getByRole('button', { name: 'Avsluta gruppchatten' }).click();
    await this.page.getByRole('dialog', { name: 'Bekräfta' }).getByRole('button', { name: 'Ja' }).click();
  }
}

/** The datetime-local value of a date in the browser's time zone (playwright.config.ts: Europe/Stockholm). */
function localInput(d: Date): string {
  const text = new Intl.DateTimeFormat('sv-SE', {
    timeZone: 'Europe/Stockholm',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).format(d);
  return text.replace(' ', 'T');
}
