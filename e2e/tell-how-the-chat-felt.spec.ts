import { e2eDatabaseUrl } from '../playwright.config.ts';
import { openDatabase } from '../server/db/database.ts';
import { registerChild } from '../harness/actors/child-account.ts';
import { Counsellor } from '../harness/actors/counsellor.ts';
import { ChildChatPage } from '../harness/page-models/child-chat-page.ts';
import { startFaultProxy } from '../harness/fault-proxy.ts';
import { keepScreenshot } from './support/small-screens.ts';
import { ConsolePage } from '../harness/page-models/console-page.ts';
import { violationsAtBothWidths } from './support/accessibility.ts';
import { expect, test } from './support/test.ts';

/**
 * 'Hur kändes chatten?' (docs/decisions.md "Heard after the chat"): a child whose chat the counsellor
 * ended answers with the network gone and closes the app at once; the next start sends what the
 * outbox kept, and the server has it once, as a count and a text that name no one.
 */
async function stored(text: string) {
  const { db, close } = openDatabase(e2eDatabaseUrl('barn'));
  try {
    const counts = await db
      .selectFrom('chat_feedback_counts')
      .selectAll()
      .where('answer', '=', 'helped')
      .execute();
    const texts = await db
      .selectFrom('chat_feedback_texts')
      .select('text')
      .where('text', '=', text)
      .execute();
    return { helped: counts.reduce((n, r) => n + Number(r.count), 0), texts: texts.length };
  } finally {
    await close();
  }
}

test('a child tells how the chat felt offline, closes the app, and the answer arrives once', async ({
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const text = `Skönt att någon lyssnade ${Date.now()}`;
  const before = await stored(text);
  const counsellor = new Counsellor(request);
  await counsellor.logIn();
  await counsellor.emptyQueue();

  const proxy = await startFaultProxy({ target: test.info().project.use.baseURL! });
  const context = await browser.newContext({ baseURL: proxy.origin, viewport: { width: 360, height: 640 } });
  try {
    const account = await registerChild(request, 'kandes');
    const chat = new ChildChatPage(await context.newPage());
    await chat.logIn(account);
    await chat.startChat();
    await chat.expectInQueue();
    // Asked only after a chat a counsellor was in.
    await expect(chat.dialog.getByText('Hur kändes chatten?')).toHaveCount(0);
    const id = await counsellor.waitingChat();
    await counsellor.accept(id);
    await counsellor.write(id, 'Hej! Vad vill du prata om?');
    await chat.expectActive();
    await counsellor.resolve(id);
    const question = chat.dialog.getByRole('group', { name: 'Hur kändes chatten?' });
    await expect(question).toBeVisible();
    const ended = chat.page.getByRole('dialog', { name: 'Avslutad' });
    if (await ended.isVisible()) await ended.getByRole('button', { name: 'OK' }).click();
    await keepScreenshot(chat.page, test.info(), 'chat-feedback-360.png');

    // The network goes; the child answers, writes more and is thanked all the same.
    proxy.offline();
    await context.setOffline(true);
    await question.getByRole('button', { name: 'Det hjälpte', exact: true }).click();
    const more = chat.dialog.getByRole('textbox', { name: 'Vill du berätta mer? (frivilligt)' });
    await more.fill(text);
    await expect(chat.dialog.getByText(`${500 - text.length} tecken kvar`)).toBeVisible();
    await chat.dialog.getByRole('button', { name: 'Skicka svaret' }).click();
    await expect(
      chat.dialog.getByRole('status').filter({ hasText: 'Tack för att du berättade.' }),
    ).toBeVisible();
    await keepScreenshot(chat.page, test.info(), 'chat-feedback-thanks-360.png');
    // The app is closed right after: nothing has reached the server.
    await chat.page.close();
    expect(await stored(text)).toEqual(before);

    proxy.online();
    await context.setOffline(false);
    const again = new ChildChatPage(await context.newPage());
    await again.page.goto('/');
    await expect(again.logoutButton).toBeVisible();
    await expect.poll(() => stored(text)).toEqual({ helped: before.helped + 1, texts: 1 });
    // Once: another start sends nothing more.
    await again.page.reload();
    await expect(again.logoutButton).toBeVisible();
    if (!(await again.dialog.isVisible())) await again.minimizedBar.click();
    await expect(again.dialog.getByText('Tack för att du berättade.')).toBeVisible();
    expect(await stored(text)).toEqual({ helped: before.helped + 1, texts: 1 });

    // The administrator reads it as a figure of the channel's week and a text, naming no one.
    const staff = await browser.newContext({ baseURL: test.info().project.use.baseURL! });
    const consolePage = new ConsolePage(await staff.newPage());
    await consolePage.goto();
    await consolePage.signIn('admin', 'admin-losenord');
    await consolePage.nav.getByRole('link', { name: 'Återkoppling' }).click();
    const channel = consolePage.page.getByRole('region', { name: 'Chatt' });
    await expect(
      channel.getByText(new RegExp(`^Det hjälpte: ${before.helped + 1} \\(\\d+ %\\)$`)).first(),
    ).toBeVisible();
    const texts = consolePage.page.getByRole('region', { name: 'Det barnen skrev' });
    await expect(texts.getByText(text)).toBeVisible();
    await expect(texts.getByText(account.username)).toHaveCount(0);
    expect(await violationsAtBothWidths(consolePage.page)).toEqual([]);
    await keepScreenshot(consolePage.page, test.info(), 'chat-feedback-admin.png');
    await staff.close();
  } finally {
    proxy.online();
    await context.close();
    await proxy.close();
  }
});
