import { expect, test, type Browser, type Page } from '../support/test.ts';
import { registerChild, type ChildAccount } from '../../harness/actors/child-account.ts';
import { logInChild } from '../../harness/page-models/child-login.ts';
import { ConsolePage } from '../../harness/page-models/console-page.ts';
import { ConsoleModerationPage } from '../../harness/page-models/console-moderation-page.ts';
import {
  writePeerPost,
  DisplayNameForm,
  MyPeerPosts,
  NewPeerPostPage,
  PeerBoard,
  PeerPostPage,
} from '../../harness/page-models/peer-pages.ts';
import { violationsAtBothWidths } from '../support/accessibility.ts';
import { runAsProductionApp } from '../support/installed-app.ts';

/** A young person signed in in a browser of their own (another device). */
async function youngPerson(browser: Browser, account: ChildAccount): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await logInChild(page, account);
  return page;
}

async function moderator(browser: Browser): Promise<ConsoleModerationPage> {
  const page = await (await browser.newContext()).newPage();
  await new ConsolePage(page).signInAsCounsellor();
  const moderation = new ConsoleModerationPage(page);
  await moderation.open();
  return moderation;
}

test('a post waits for a counsellor, then shows live on another young person’s board and as published to its author', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const author = await registerChild(request, 'ung');
  const reader = await registerChild(request, 'ung');
  await logInChild(page, author);
  const readerPage = await youngPerson(browser, reader);
  const readerBoard = new PeerBoard(readerPage);
  await expect(readerBoard.heading).toBeVisible();

  const subject = `Ensam på rasterna ${author.username}`;
  // No post before a name: never the username, which is half a login.
  await page.goto('/');
  await new PeerBoard(page).writeLink.click();
  const naming = new DisplayNameForm(page);
  await expect(naming.form).toContainText('Andra unga ser namnet vid dina inlägg och svar.');
  await expect(new NewPeerPostPage(page).subject).toHaveCount(0);
  await naming.choose(author.username.toUpperCase());
  await expect(naming.error).toHaveText('Namnet går inte att använda. Välj ett annat.');
  await naming.choose('Molnet');
  await expect(naming.form).toHaveCount(0);
  const post = await writePeerPost(page, subject, 'Ingen vill vara med mig. Känner någon igen sig?');
  await expect(page.getByText('Granskas', { exact: true })).toBeVisible();
  await expect(page.getByText('En kurator läser det innan andra kan se det.')).toBeVisible();
  await expect(readerBoard.post(subject)).toHaveCount(0);

  const moderation = await moderator(browser);
  await expect(moderation.entry(subject)).toBeVisible();
  await moderation.approve(subject);

  // Live: the reader's board and the author's open post, with no reload.
  await expect(readerBoard.post(subject)).toBeVisible({ timeout: 15_000 });
  // The byline is the chosen name, never the username (which this test's subject carries).
  await expect(readerBoard.post(subject).getByText(/^Av /)).toHaveText('Av Molnet');
  await expect(readerBoard.post(subject)).toContainText('0 svar');
  await expect(page.getByText('Granskas', { exact: true })).toHaveCount(0, { timeout: 15_000 });

  // The reader answers; the reply waits, then a counsellor approves it and replies as staff.
  await readerBoard.post(subject).getByRole('link', { name: subject }).click();
  const readerPost = new PeerPostPage(readerPage);
  await expect(readerPost.heading).toHaveText(subject);
  await new DisplayNameForm(readerPage).choose('Stjärnan');
  await readerPost.answer('Jag känner igen mig. Du är inte ensam.');
  await expect(readerPost.reply('Du är inte ensam.')).toContainText('Granskas');
  await expect(moderation.entry('Du är inte ensam.')).toBeVisible({ timeout: 15_000 });
  await moderation.approve('Du är inte ensam.');
  await moderation.replyAsStaff(subject, 'Bra att ni pratar. Ni kan alltid skriva till oss också.');
  await expect(post.reply('Du är inte ensam.')).toContainText('Stjärnan', { timeout: 15_000 });
  await expect(post.reply('Du är inte ensam.')).not.toContainText(reader.username);
  await expect(post.reply('Ni kan alltid skriva till oss')).toContainText('Kurator');
  await expect(readerPost.reply('Du är inte ensam.')).not.toContainText('Granskas');
  // 'Anmäl' on every reply but one's own, a counsellor's too.
  await expect(readerPost.reportReply('Ni kan alltid skriva till oss')).toHaveAccessibleName(
    'Anmäl svaret av Kurator',
  );
  await expect(readerPost.reportReply('Du är inte ensam.')).toHaveCount(0);
  await expect(post.reportReply('Du är inte ensam.')).toBeVisible();
  await readerPost.reportReply('Ni kan alltid skriva till oss').click();
  await readerPost.confirmReport();
  await expect(moderation.entry('Ni kan alltid skriva till oss')).toContainText('Anmält', {
    timeout: 15_000,
  });
  await expect(readerPost.reply('Ni kan alltid skriva till oss')).toHaveCount(0, { timeout: 15_000 });
  await moderation.approve('Ni kan alltid skriva till oss');

  // Back from a post leads to my pages, where the author finds it among 'Mina inlägg'.
  await page.getByRole('banner').getByRole('button', { name: 'Tillbaka' }).click();
  await expect(page).toHaveURL(/\/mina-sidor$/);
  await expect(new MyPeerPosts(page).post(subject)).toContainText('2 svar');
});

test('a reported post goes back to moderation; a rejected one shows the author the reason', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const author = await registerChild(request, 'ung');
  const reader = await registerChild(request, 'ung');
  await logInChild(page, author);
  const moderation = await moderator(browser);

  const reported = `Anmäls ${author.username}`;
  await writePeerPost(page, reported, 'Ett inlägg som någon anmäler.');
  await moderation.approve(reported);
  const rejected = `Avvisas ${author.username}`;
  await writePeerPost(page, rejected, 'Här står mitt telefonnummer.');
  await moderation.reject(rejected, 'Skriv inte ut ditt telefonnummer.');
  await expect(page.getByText('En kurator godkände det inte: Skriv inte ut ditt telefonnummer.')).toBeVisible(
    {
      timeout: 15_000,
    },
  );

  const readerPage = await youngPerson(browser, reader);
  const board = new PeerBoard(readerPage);
  await expect(board.post(rejected)).toHaveCount(0);
  await board.post(reported).getByRole('link', { name: reported }).click();
  const readerPost = new PeerPostPage(readerPage);
  await readerPost.reportPost.click();
  await readerPost.confirmReport();
  await expect(readerPage.getByText('Tack! En kurator tittar på det.')).toBeVisible();

  await expect(moderation.entry(reported)).toContainText('Anmält', { timeout: 15_000 });
  await readerPage.goto('/');
  await expect(board.heading).toBeVisible();
  await expect(board.post(reported)).toHaveCount(0);
  await moderation.approve(reported);
  await expect(board.post(reported)).toBeVisible({ timeout: 15_000 });
});

test('a post written offline is kept and sent once; the board is readable offline', async ({
  page,
  context,
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const author = await registerChild(request, 'ung');
  // As on Chrome for Android, where SharedWorker is missing: the data worker runs in the page's own
  // (dedicated) worker, which the browser's offline emulation reaches.
  await page.addInitScript(() => Reflect.deleteProperty(window, 'SharedWorker'));
  // The service worker serves the app shell offline (it registers at once as in production).
  test.setTimeout(120_000);
  await runAsProductionApp(page);
  await logInChild(page, author);
  const moderation = await moderator(browser);
  const earlier = `Läses offline ${author.username}`;
  await writePeerPost(page, earlier, 'Finns kvar utan nät.');
  await moderation.approve(earlier);
  await page.goto('/');
  const board = new PeerBoard(page);
  await expect(board.post(earlier)).toBeVisible({ timeout: 15_000 });
  // Active, not controlling this document: a worker that activates during the goto above claims the
  // page that is going, not this one (see read-cached-data-offline.spec.ts); the reload goes through it.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });

  await context.setOffline(true);
  const reloaded = await page.reload();
  expect(reloaded?.fromServiceWorker()).toBe(true);
  await expect(board.post(earlier)).toBeVisible();
  const subject = `Skrivet på bussen ${author.username}`;
  await board.writeLink.click();
  await new NewPeerPostPage(page).write(subject, 'Skrivet utan nät.');
  await expect(page.getByText('Det är sparat och skickas när du är uppkopplad igen.')).toBeVisible();
  await expect(page).toHaveURL(/\/mina-sidor$/);
  const mine = new MyPeerPosts(page);
  await expect(mine.post(subject)).toContainText('Inte skickat än');
  const staleNotice = page.getByText('Du verkar vara offline. Det du ser kan vara gammalt.');
  await expect(staleNotice.first()).toBeVisible();

  await context.setOffline(false);
  await expect(mine.post(subject)).toContainText('Granskas', { timeout: 60_000 });
  // The lists load again once the line is back: the notice about old data goes.
  await expect(staleNotice).toHaveCount(0, { timeout: 15_000 });
  await expect(moderation.entry(subject)).toHaveCount(1, { timeout: 15_000 });
  await page.unrouteAll({ behavior: 'wait' });
});

test('my pages’ Mina inlägg, with a post waiting, one not approved and one published, has no accessibility violations', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const author = await registerChild(request, 'ung');
  await logInChild(page, author);
  const moderation = await moderator(browser);
  const published = `Publicerat ${author.username}`;
  const rejected = `Inte godkänt ${author.username}`;
  const waiting = `Väntar ${author.username}`;
  await writePeerPost(page, published, 'Ett inlägg som en kurator godkänner.');
  await moderation.approve(published);
  await writePeerPost(page, rejected, 'Här står mitt telefonnummer.');
  await moderation.reject(rejected, 'Skriv inte ut ditt telefonnummer.');
  await writePeerPost(page, waiting, 'Ett inlägg som väntar på en kurator.');

  const mine = new MyPeerPosts(page);
  await mine.goto();
  // Every state the list can show, each with its own badge or note.
  await expect(mine.post(waiting)).toContainText('Granskas');
  await expect(mine.post(rejected)).toContainText(
    'En kurator godkände det inte: Skriv inte ut ditt telefonnummer.',
  );
  await expect(mine.post(published)).toContainText('0 svar');
  expect(await violationsAtBothWidths(page)).toEqual([]);
});

test('a signed-out visitor sees what the posts are and how to sign in, but no posts', async ({
  page,
  browser,
  request,
}) => {
  // Two more browsers sign in (the author, a counsellor) before the board is checked at two widths.
  test.setTimeout(90_000);
  const author = await registerChild(request, 'ung');
  const writer = await youngPerson(browser, author);
  const subject = `Bara för inloggade ${author.username}`;
  await writePeerPost(writer, subject, 'Syns inte utan konto.');
  await (await moderator(browser)).approve(subject);

  await page.goto('/');
  const board = new PeerBoard(page);
  await expect(board.heading).toBeVisible();
  await expect(page.getByText('kan bara den som är inloggad läsa och skriva inlägg')).toBeVisible();
  await expect(board.list).toHaveCount(0);
  await expect(page.getByText(subject)).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Skapa ett konto' })).toHaveAttribute('href', /^\/skapa-konto/);
  expect(await violationsAtBothWidths(page)).toEqual([]);
  await page.getByRole('button', { name: 'Logga in för att läsa inläggen' }).press('Enter');
  await expect(page.getByRole('dialog', { name: 'Logga in' })).toBeVisible();
});

test('the board, a new post, a post and the moderation queue have no accessibility violations', async ({
  page,
  browser,
  request,
}) => {
  // Two browsers signed in, a moderation, and axe at two widths per page: 28 s on a quiet machine.
  test.setTimeout(90_000);
  const author = await registerChild(request, 'ung');
  await logInChild(page, author);
  const moderation = await moderator(browser);
  const subject = `Tillgängligt ${author.username}`;
  const post = await writePeerPost(page, subject, 'Ett inlägg att granska.');
  expect(await violationsAtBothWidths(page)).toEqual([]);
  await expect(moderation.entry(subject)).toBeVisible();
  expect(await violationsAtBothWidths(moderation.page)).toEqual([]);
  // Keyboard only: the approve button takes focus and Enter decides.
  await moderation
    .entry(subject)
    .getByRole('button', { name: /^Godkänn/ })
    .focus();
  await moderation.page.keyboard.press('Enter');
  await expect(moderation.entry(subject)).toHaveCount(0);
  await expect(moderation.status).toContainText('Godkänt.');
  await expect(post.replyText).toBeVisible({ timeout: 15_000 });
  expect(await violationsAtBothWidths(page)).toEqual([]);
  await page.goto('/');
  await expect(new PeerBoard(page).post(subject)).toBeVisible();
  expect(await violationsAtBothWidths(page)).toEqual([]);
  await page.goto('/mina-sidor/nytt-inlagg');
  await new NewPeerPostPage(page).send.click();
  await expect(page.getByRole('alert')).toHaveCount(2);
  expect(await violationsAtBothWidths(page)).toEqual([]);
  // Mail to a counsellor stays reachable in Peers, on routes of its own.
  await page.goto('/mina-sidor');
  await page.getByRole('link', { name: 'Skriv ett nytt meddelande' }).click();
  await expect(page).toHaveURL(/\/mina-sidor\/nytt-meddelande$/);
  await expect(page.getByRole('heading', { name: 'Nytt meddelande', level: 1 })).toBeVisible();
});
