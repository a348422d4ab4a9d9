import { expect, type Locator, type Page } from '@playwright/test';

/** 'Andra ungas inlägg' on the Peers start page: the published posts, newest first. */
export class PeerBoard {
  readonly heading: Locator;
  readonly list: Locator;
  readonly writeLink: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Andra ungas inlägg' });
    this.list = page.getByRole('list', { name: 'Andra ungas inlägg' });
    this.writeLink = page.getByRole('main').getByRole('link', { name: 'Skriv ett inlägg' }).first();
  }

  post(subject: string): Locator {
    return this.list.getByRole('listitem').filter({ has: this.page.getByRole('link', { name: subject }) });
  }
}

/** 'Mina inlägg' on my pages in Peers. */
export class MyPeerPosts {
  readonly list: Locator;

  constructor(readonly page: Page) {
    this.list = page.getByRole('list', { name: 'Mina inlägg' });
  }

  async goto() {
    await this.page.goto('/mina-sidor');
    await this.page.getByRole('heading', { name: 'Mina inlägg' }).waitFor();
  }

  post(subject: string): Locator {
    return this.list.getByRole('listitem').filter({ hasText: subject });
  }
}

/** Route '/mina-sidor/nytt-inlagg' in Peers. */
export class NewPeerPostPage {
  readonly heading: Locator;
  readonly subject: Locator;
  readonly text: Locator;
  readonly send: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Nytt inlägg', level: 1 });
    this.subject = page.getByRole('textbox', { name: 'Rubrik' });
    this.text = page.getByRole('textbox', { name: 'Inlägg' });
    this.send = page.getByRole('button', { name: 'Skicka', exact: true });
  }

  async write(subject: string, text: string) {
    await expect(this.heading).toBeVisible();
    await this.subject.fill(subject);
    await this.text.fill(text);
    await this.send.click();
  }
}

/** 'Välj ett namn': in place of the post or reply form until the young person has chosen a name. */
export class DisplayNameForm {
  readonly form: Locator;
  readonly name: Locator;
  readonly save: Locator;
  readonly error: Locator;

  constructor(readonly page: Page) {
    this.form = page.getByRole('form', { name: 'Välj ett namn' });
    this.name = this.form.getByRole('textbox', { name: 'Namn som andra ser' });
    this.save = this.form.getByRole('button', { name: 'Spara namn' });
    this.error = this.form.getByRole('alert');
  }

  async choose(name: string) {
    await this.name.fill(name);
    await this.save.click();
  }
}

/** Route '/mina-sidor/inlagg/:id' in Peers: a post with its replies. */
export class PeerPostPage {
  readonly heading: Locator;
  readonly replies: Locator;
  readonly replyForm: Locator;
  readonly replyText: Locator;
  readonly replySend: Locator;
  readonly reportPost: Locator;
  readonly reportDialog: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1 });
    this.replies = page.getByRole('list', { name: 'Svar' });
    // The form has a name of its own, so a screen reader tells it apart from its textbox.
    this.replyForm = page.getByRole('form', { name: 'Svara på inlägget' });
    this.replyText = this.replyForm.getByRole('textbox', { name: 'Ditt svar' });
    this.replySend = page.getByRole('button', { name: 'Skicka svar' });
    this.reportPost = page.getByRole('button', { name: 'Anmäl inlägget' });
    this.reportDialog = page.getByRole('dialog', { name: 'Anmäl' });
  }

  /** The post's id, from the address. */
  id(): number {
    return Number(/\/inlagg\/(\d+)/.exec(this.page.url())?.[1]);
  }

  reply(text: string): Locator {
    return this.replies.getByRole('listitem').filter({ hasText: text });
  }

  /** 'Anmäl' on a reply, named by who wrote it ('Kurator' for a counsellor). */
  reportReply(text: string): Locator {
    return this.reply(text).getByRole('button', { name: /^Anmäl svaret av / });
  }

  async answer(text: string) {
    await this.replyText.fill(text);
    await this.replySend.click();
  }

  async confirmReport() {
    await expect(this.reportDialog).toBeVisible();
    await this.reportDialog.getByRole('button', { name: 'Ja, anmäl' }).click();
  }
}

/**
 * A post written from the board's 'Skriv ett inlägg', naming the author 'Molnet' when the account
 * has no name yet; resolves on the post's own page.
 */
export async function writePeerPost(page: Page, subject: string, text: string): Promise<PeerPostPage> {
  await page.goto('/');
  await new PeerBoard(page).writeLink.click();
  // The first post of an account asks for the name others will see.
  const newPost = new NewPeerPostPage(page);
  const naming = new DisplayNameForm(page);
  await expect(newPost.subject.or(naming.name)).toBeVisible();
  if (await naming.name.isVisible()) await naming.choose('Molnet');
  await newPost.write(subject, text);
  const post = new PeerPostPage(page);
  await expect(post.heading).toHaveText(subject);
  return post;
}
