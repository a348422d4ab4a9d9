import { e2eDatabaseUrl } from '../playwright.config.ts';
import { appendCounsellorMessages } from '../harness/long-chat.ts';
import { expect, test, type APIRequestContext } from './support/test.ts';
import { childToken, registerChild } from '../harness/actors/child-account.ts';
import { ChildServerView } from '../harness/actors/child-server-view.ts';
import { Counsellor } from '../harness/actors/counsellor.ts';
import { logInChild } from '../harness/page-models/child-login.ts';
import { HistoricChatWindow } from '../harness/page-models/historic-chat-window.ts';
import { MyConversationsPage } from '../harness/page-models/my-conversations.ts';
import { accessibilityViolations } from './support/accessibility.ts';

const MESSAGES = 1500;
const text = (n: number) => `Rad ${n} i en lång chatt`;

/**
 * A finished chat of 1,500 messages: the first two and the last through the API, the ones between
 * written to the server's database (harness/long-chat.ts).
 */
async function childWithLongChat(request: APIRequestContext) {
  const account = await registerChild(request, 'lang-historik');
  const server = new ChildServerView(request, await childToken(request, account));
  const chat = await server.startChat(text(0));
  const counsellor = new Counsellor(request);
  await counsellor.logIn();
  await counsellor.accept(chat.id);
  await counsellor.write(chat.id, text(1));
  const between = Array.from({ length: MESSAGES - 3 }, (_, i) => text(i + 2));
  await appendCounsellorMessages(e2eDatabaseUrl('barn'), chat.id, between);
  await counsellor.write(chat.id, text(MESSAGES - 1));
  await counsellor.resolve(chat.id);
  return account;
}

test('a history of 1,500 messages opens at its newest message, keeps few rows in the page and scrolls to its first', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const account = await childWithLongChat(request);
  await page.setViewportSize({ width: 320, height: 700 });
  await logInChild(page, account);
  const myPages = new MyConversationsPage(page);
  await myPages.goto();
  await myPages.openNewestChat();

  const window = new HistoricChatWindow(page);
  const list = window.dialog.getByRole('list', { name: 'Meddelanden' });
  await expect(window.message(text(MESSAGES - 1))).toBeInViewport();
  // Windowed: a handful of rows in the DOM, each knowing its place in the whole chat.
  const rendered = await list.getByRole('listitem').count();
  expect(rendered).toBeLessThan(120);
  const setSize = Number(await list.getByRole('listitem').last().getAttribute('aria-setsize'));
  expect(setSize).toBeGreaterThanOrEqual(MESSAGES);
  await expect(window.footer).toBeInViewport();
  expect(await accessibilityViolations(page)).toEqual([]);

  // Read in pages (src/data/chat-pages.ts): only the newest rows at first. Scrolled to the top of
  // what is read, the older rows come above it and the rows on screen stay where they are.
  const rows = () => list.locator('li[data-row]');
  /** The first row in view and its distance from the list's top, scrolled to the top first. */
  const topRowAfterScrollingUp = () =>
    list.evaluate((el) => {
      // Measured in the same task as the scroll, before its event can have anything older read.
      el.scrollTop = 0;
      const box = el.getBoundingClientRect();
      const row = [...el.querySelectorAll('li[data-row]')].find(
        (r) => r.getBoundingClientRect().bottom > box.top,
      );
      return { key: row!.getAttribute('data-row')!, top: row!.getBoundingClientRect().top - box.top };
    });
  const topOf = (key: string) =>
    list.evaluate(
      (el, k) =>
        el.querySelector(`li[data-row="${k}"]`)!.getBoundingClientRect().top - el.getBoundingClientRect().top,
      key,
    );
  const firstPlace = Number(await rows().first().getAttribute('aria-posinset'));
  expect(firstPlace).toBeGreaterThan(MESSAGES - 200);
  const anchor = await topRowAfterScrollingUp();
  await expect
    .poll(async () => Number(await rows().first().getAttribute('aria-posinset')))
    .toBeLessThan(firstPlace);
  expect(Math.abs((await topOf(anchor.key)) - anchor.top)).toBeLessThan(2);

  // Scrolled to the top, step by step as a thumb would, each step reading the page above it: the
  // first message shows, the newest is gone.
  await expect(async () => {
    await list.evaluate((el) => el.scrollBy(0, -4000));
    await expect(window.message(text(0))).toBeInViewport({ timeout: 100 });
  }).toPass({ timeout: 30_000, intervals: [100] });
  await expect(window.message(text(MESSAGES - 1))).toHaveCount(0);
  expect(await list.getByRole('listitem').count()).toBeLessThan(120);

  // The middle, jumped to: its rows are rendered where they belong (no blank viewport).
  await list.evaluate((el) => (el.scrollTop = el.scrollHeight / 2));
  await expect
    .poll(() =>
      list.evaluate((el) => {
        const box = el.getBoundingClientRect();
        return [...el.querySelectorAll('li[data-row]')]
          .map((row) => row.getBoundingClientRect())
          .filter((r) => r.bottom > box.top && r.top < box.bottom).length;
      }),
    )
    .toBeGreaterThan(2);
  await expect(window.message(text(0))).toHaveCount(0);
});
