import { expect, test, type APIRequestContext } from './support/test.ts';
import { childToken, registerChild } from '../harness/actors/child-account.ts';
import { ChildServerView } from '../harness/actors/child-server-view.ts';
import { Counsellor } from '../harness/actors/counsellor.ts';
import { logInChild } from '../harness/page-models/child-login.ts';
import { MyConversationsPage } from '../harness/page-models/my-conversations.ts';
import { NewPostPage } from '../harness/page-models/new-post-page.ts';
import { ThreadPage } from '../harness/page-models/thread-page.ts';
import { accessibilityViolations } from './support/accessibility.ts';

/** A fresh child with one earlier mail a counsellor has answered: every test starts from its own. */
async function childWithAnsweredMail(request: APIRequestContext) {
  const account = await registerChild(request, 'mejl');
  const server = new ChildServerView(request, await childToken(request, account));
  const mail = await server.sendMail('Ett tidigare mejl', 'Hej, jag har en fråga.');
  const counsellor = new Counsellor(request);
  await counsellor.logIn();
  await counsellor.write(mail.id, 'Hej! Vad bra att du skriver.');
  return { account, answeredMailId: mail.id };
}

test('a child writes a mail, gets an answer from a counsellor, reads it and replies', async ({
  page,
  request,
}) => {
  const account = await registerChild(request, 'mejl');
  const counsellor = new Counsellor(request);
  await counsellor.logIn();
  await logInChild(page, account);
  const myPages = new MyConversationsPage(page);
  await myPages.goto();
  await myPages.newPostLink.click();

  const newPost = new NewPostPage(page);
  await expect(newPost.heading).toBeVisible();
  await newPost.send.click();
  await expect(newPost.alerts).toHaveText(['Ämne måste anges.', 'Meddelande måste anges.']);
  await newPost.text.fill('x'.repeat(4001));
  await expect(newPost.counter).toHaveText('Antal tecken: 4001 av 4000');
  await newPost.send.click();
  await expect(newPost.alerts).toContainText(['Max 4000 tecken.']);

  const subject = 'Bråk i skolan';
  await newPost.write(subject, 'Några i klassen är elaka mot mig.');
  const thread = new ThreadPage(page);
  await expect(thread.heading).toHaveText(subject);
  await expect(thread.message('Några i klassen är elaka mot mig.')).toContainText('Skickat');
  const id = thread.id();
  expect((await counsellor.queue()).some((c) => c.id === id && c.systemType === 'mail')).toBe(true);

  // Back from a post leads to my pages; the counsellor's answer marks the thread unread there.
  await page.getByRole('banner').getByRole('button', { name: 'Tillbaka' }).click();
  await expect(page).toHaveURL(/\/mina-sidor$/);
  await expect(myPages.thread(subject)).toBeVisible();
  await expect(myPages.thread(subject).getByText('Nytt svar')).toHaveCount(0);
  await counsellor.write(id, 'Hej! Vad tråkigt att höra. Vill du berätta mer?');
  await expect(myPages.thread(subject).getByText('Nytt svar')).toBeVisible({ timeout: 15_000 });

  await myPages.openThread(subject);
  await expect(thread.message('Vill du berätta mer?')).toContainText('Stödlinjen Kurator');
  // The child's own words are 'Du', as in the live chat, not the label the counsellor sees.
  await expect(thread.message('Några i klassen är elaka mot mig.')).toContainText('Du');
  await expect(thread.message('Några i klassen är elaka mot mig.')).not.toContainText(/\d+ år/);
  await thread.answer('Ja, de säger saker om mig varje rast.');
  await expect(thread.message('varje rast')).toContainText(/Skickar\.\.\.|Skickat/);
  await expect(thread.message('varje rast')).toContainText('Skickat');
  await expect
    .poll(async () => (await counsellor.messages(id)).map((m) => m.message))
    .toContain('Ja, de säger saker om mig varje rast.');

  // While the thread is open a new answer shows without reloading.
  await counsellor.write(id, 'Det låter jobbigt. Har du pratat med någon vuxen?');
  await expect(thread.message('Har du pratat med någon vuxen?')).toBeVisible({ timeout: 15_000 });

  await page.getByRole('banner').getByRole('button', { name: 'Tillbaka' }).click();
  await expect(myPages.thread(subject)).toBeVisible();
  await expect(myPages.thread(subject).getByText('Nytt svar')).toHaveCount(0);
});

test('a mail written offline is kept, shown as waiting and sent once when the network is back', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(90_000);
  const { account } = await childWithAnsweredMail(request);
  // As on Chrome for Android, where SharedWorker is missing: the data worker then runs in the page's
  // own (dedicated) worker, which the browser's offline emulation reaches.
  await page.addInitScript(() => Reflect.deleteProperty(window, 'SharedWorker'));
  await logInChild(page, account);
  const myPages = new MyConversationsPage(page);
  await myPages.goto();
  await expect(myPages.thread('Ett tidigare mejl')).toBeVisible();

  await context.setOffline(true);
  await myPages.newPostLink.click();
  const subject = 'Skrivet utan nät';
  await new NewPostPage(page).write(subject, 'Jag skriver det här på bussen.');
  await expect(page.getByText('Meddelandet är sparat och skickas när du är uppkopplad igen.')).toBeVisible();
  await expect(page).toHaveURL(/\/mina-sidor$/);
  await expect(myPages.threads.filter({ hasText: subject })).toContainText('Väntar på att skickas');

  await context.setOffline(false);
  await expect(myPages.thread(subject)).toBeVisible({ timeout: 60_000 });
  await expect(myPages.threads.filter({ hasText: 'Väntar på att skickas' })).toHaveCount(0);
  const server = new ChildServerView(request, await childToken(request, account));
  expect((await server.conversations()).filter((c) => c.subject === subject)).toHaveLength(1);
});

for (const width of [320, 1280]) {
  test(`my pages, a new post and a thread have no accessibility violations at ${width} px`, async ({
    page,
    request,
  }) => {
    const { account, answeredMailId } = await childWithAnsweredMail(request);
    await page.setViewportSize({ width, height: 800 });
    await logInChild(page, account);
    const myPages = new MyConversationsPage(page);
    await myPages.goto();
    await expect(myPages.thread('Ett tidigare mejl')).toBeVisible();
    expect(await accessibilityViolations(page)).toEqual([]);

    const newPost = new NewPostPage(page);
    await newPost.goto();
    await newPost.send.click();
    await expect(newPost.alerts).toHaveCount(2);
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.goto(`/mina-sidor/inlagg/${answeredMailId}`);
    const thread = new ThreadPage(page);
    await expect(thread.message('Vad bra att du skriver.')).toBeVisible();
    expect(await accessibilityViolations(page)).toEqual([]);
  });
}
