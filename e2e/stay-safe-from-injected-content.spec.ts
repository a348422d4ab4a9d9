import { expect, test } from './support/test.ts';
import { childToken, registerChild } from '../harness/actors/child-account.ts';
import { ChildServerView } from '../harness/actors/child-server-view.ts';
import { Counsellor } from '../harness/actors/counsellor.ts';
import { ChildChatPage } from '../harness/page-models/child-chat-page.ts';
import { MyConversationsPage } from '../harness/page-models/my-conversations.ts';
import { ThreadPage } from '../harness/page-models/thread-page.ts';
import { expectNothingInjected, INJECTED_CONTENT } from './support/injected-content.ts';

// Markup in what a child or a counsellor writes is shown as the text it is. Nothing of
// it runs or becomes an element, and the browser policy sees nothing blocked (support/test.ts).

test('markup in chat messages, the counsellor’s and the child’s own, shows as text', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const account = await registerChild(request, 'xss');
  const server = new ChildServerView(request, await childToken(request, account));
  const counsellor = new Counsellor(request);
  await counsellor.logIn();
  const chat = await server.startChat(INJECTED_CONTENT[0]);
  await counsellor.accept(chat.id);
  for (const text of INJECTED_CONTENT) await counsellor.write(chat.id, text);

  const child = new ChildChatPage(page);
  await child.logIn(account);
  await child.openButton.click();
  await child.expectActive();
  for (const text of INJECTED_CONTENT) await child.send(`${text} (från barnet)`);

  for (const text of INJECTED_CONTENT) {
    await expect(child.message(text).first()).toBeVisible();
    await expect(child.message(`${text} (från barnet)`)).toContainText('Skickat');
  }
  await expectNothingInjected(page);
  // The server holds the same text, which the counsellor reads as written.
  expect((await counsellor.messages(chat.id)).map((m) => m.message)).toEqual(
    expect.arrayContaining(INJECTED_CONTENT.map((t) => `${t} (från barnet)`)),
  );
});

test('markup in a mail’s subject, its text, the counsellor’s answer and the child’s reply shows as text', async ({
  page,
  request,
}) => {
  const account = await registerChild(request, 'xss');
  const server = new ChildServerView(request, await childToken(request, account));
  const subject = INJECTED_CONTENT.slice(0, 3).join(' ');
  const mail = await server.sendMail(subject, INJECTED_CONTENT.join('\n'));
  const counsellor = new Counsellor(request);
  await counsellor.logIn();
  await counsellor.write(mail.id, INJECTED_CONTENT.slice(3).join('\n'));

  const child = new ChildChatPage(page);
  await child.logIn(account);
  const myPages = new MyConversationsPage(page);
  await myPages.goto();
  await expect(myPages.thread(subject)).toBeVisible();
  await expectNothingInjected(page);

  await myPages.openThread(subject);
  const thread = new ThreadPage(page);
  await expect(thread.heading).toHaveText(subject);
  await thread.answer(INJECTED_CONTENT[7]);
  await expect(thread.message(INJECTED_CONTENT[7]).last()).toContainText('Skickat');
  for (const text of INJECTED_CONTENT) await expect(thread.main.getByText(text).first()).toBeVisible();
  await expectNothingInjected(page);
});
