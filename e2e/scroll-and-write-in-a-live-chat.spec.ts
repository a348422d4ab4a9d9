import { e2eDatabaseUrl } from '../playwright.config.ts';
import { appendCounsellorMessages } from '../harness/long-chat.ts';
import { expect, test } from './support/test.ts';
import { childToken, registerChild } from '../harness/actors/child-account.ts';
import { ChildServerView } from '../harness/actors/child-server-view.ts';
import { Counsellor } from '../harness/actors/counsellor.ts';
import { logInChild } from '../harness/page-models/child-login.ts';
import { ChildChatPage } from '../harness/page-models/child-chat-page.ts';

const text = (n: number) => `Meddelande ${n} från kuratorn`;

test('a child in a live chat is offered the new messages once more than 72 px up, and the text box grows to 168 px', async ({
  page,
  request,
}) => {
  const account = await registerChild(request, 'lang-chatt');
  const server = new ChildServerView(request, await childToken(request, account));
  const chat = await server.startChat('Hej');
  const counsellor = new Counsellor(request);
  await counsellor.logIn();
  await counsellor.accept(chat.id);
  await counsellor.write(chat.id, text(0));
  await appendCounsellorMessages(
    e2eDatabaseUrl('barn'),
    chat.id,
    Array.from({ length: 40 }, (_, i) => text(i + 1)),
  );
  await counsellor.write(chat.id, text(41));

  await logInChild(page, account);
  const child = new ChildChatPage(page);
  await child.openButton.click();
  await expect(child.dialog).toBeVisible();
  await expect(child.message(text(41))).toBeInViewport();
  const showNew = child.dialog.getByRole('button', { name: 'Visa nya meddelanden' });
  const scrollUpTo = (distance: number) =>
    child.messages.evaluate((el, d) => {
      el.scrollTop = el.scrollHeight - el.clientHeight - d;
      el.dispatchEvent(new Event('scroll'));
    }, distance);
  const distanceFromBottom = () =>
    child.messages.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);

  // SPEC §2: the prompt shows when the list is more than 72 px from its bottom, not before.
  await scrollUpTo(72);
  await expect(showNew).toHaveCount(0);
  await scrollUpTo(120);
  await expect(showNew).toBeVisible();
  await showNew.click();
  await expect.poll(distanceFromBottom).toBeLessThanOrEqual(1);
  await expect(showNew).toHaveCount(0);

  // SPEC §2: the text box grows with what is written, to 168 px at the most.
  const height = () => child.input.evaluate((el) => el.getBoundingClientRect().height);
  const one = await height();
  await child.input.fill('rad\nrad\nrad');
  await expect.poll(height).toBeGreaterThan(one);
  await child.input.fill(Array.from({ length: 30 }, () => 'rad').join('\n'));
  await expect.poll(height).toBe(168);
});
