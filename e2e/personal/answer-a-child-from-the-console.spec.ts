import { expect, test, type APIRequestContext } from '../support/test.ts';
import { childToken, registerChild, type ChildAccount } from '../../harness/actors/child-account.ts';
import { Counsellor } from '../../harness/actors/counsellor.ts';
import { ChildChatPage } from '../../harness/page-models/child-chat-page.ts';
import { ConsoleCounsellorPage } from '../../harness/page-models/console-counsellor-page.ts';
import { ConsolePage } from '../../harness/page-models/console-page.ts';
import { accessibilityViolations } from '../support/accessibility.ts';

const CONV = '/portal/features/conversations/conversationsapplication-id';

/**
 * Chats other specs left waiting are answered and ended through the staff API first, so that the
 * child of this test is the next in the queue ('Ta nästa' then means this child).
 */
async function emptyChatQueue(request: APIRequestContext) {
  const counsellor = new Counsellor(request);
  await counsellor.logIn();
  for (const item of await counsellor.queue()) {
    if (item.systemType !== 'chat') continue;
    await counsellor.accept(item.id);
    await counsellor.resolve(item.id);
  }
}

/** The child's open chat, read with the child's own token. */
async function openChatOf(request: APIRequestContext, account: ChildAccount): Promise<number> {
  const token = await childToken(request, account);
  let id: number | undefined;
  await expect
    .poll(async () => {
      const res = await request.get(`${CONV}/conversations`, {
        headers: { Authorization: `Bearer ${token}`, 'X-App-Variant': 'Barn' },
      });
      const list = ((await res.json()) as { value: { id: number; systemType: string; state: string }[] })
        .value;
      id = list.find((c) => c.systemType === 'chat' && c.state === 'New')?.id;
      return id;
    })
    .toBeDefined();
  return id!;
}

test.describe('answer a child from the staff console', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('a counsellor takes the next child, they write to each other, and the counsellor ends the chat', async ({
    browser,
    request,
  }) => {
    test.setTimeout(90_000);
    await emptyChatQueue(request);
    const account = await registerChild(request, 'konsol');

    const childContext = await browser.newContext();
    const staffContext = await browser.newContext();
    try {
      const child = new ChildChatPage(await childContext.newPage());
      await child.logIn(account);
      await child.startChat();
      await child.expectInQueue();
      const id = await openChatOf(request, account);

      const staffPage = await staffContext.newPage();
      const shell = new ConsolePage(staffPage);
      await shell.goto();
      expect(await accessibilityViolations(staffPage)).toEqual([]);
      await shell.signInAsCounsellor();
      await expect(shell.header).toContainText('Kim');
      await expect(shell.nav.getByRole('link', { name: 'Kurator' })).toHaveAttribute('aria-current', 'page');
      await expect(shell.nav.getByRole('link', { name: 'Gruppledare' })).toHaveCount(0);
      const console = new ConsoleCounsellorPage(staffPage);

      // The child waits first in the chat queue with age, gender and device.
      const entry = console.queueEntry(id);
      await expect(entry).toContainText('Nummer 1');
      await expect(entry).toContainText('13 år');
      await expect(entry).toContainText('Kille');
      await expect(entry).toContainText(/PWA: (Ja|Nej)/);
      expect(await accessibilityViolations(staffPage)).toEqual([]);

      await console.takeNextButton.click();
      const chat = console.chat(id);
      await expect(chat.status).toHaveText('Aktiv chatt');
      await expect(chat.panel).toContainText('13 år');
      await expect(entry).toHaveCount(0);

      await chat.send('Hej! Jag heter Kim. Vad vill du prata om?');
      await expect(chat.message('Hej! Jag heter Kim. Vad vill du prata om?')).toContainText('Skickat');
      await child.expectMessage('Hej! Jag heter Kim. Vad vill du prata om?');
      await child.expectActive();

      // The child's typing and message appear live in the console.
      await child.input.pressSequentially('Jag är', { delay: 20 });
      await expect(chat.typing).toBeVisible();
      await child.input.fill('Jag är ledsen idag.');
      await child.input.press('Enter');
      await expect(chat.message('Jag är ledsen idag.')).toBeVisible();
      await expect(chat.typing).toBeHidden();
      expect(await accessibilityViolations(staffPage)).toEqual([]);

      await chat.resolve();
      await expect(chat.status).toHaveText('Chatten är avslutad');
      await expect(chat.input).toHaveCount(0);
      await child.expectEnded();
    } finally {
      await childContext.close();
      await staffContext.close();
    }
  });

  test("what the counsellor begins to write stays while the console catches up after 'Ta nästa'", async ({
    browser,
    request,
  }) => {
    test.setTimeout(90_000);
    await emptyChatQueue(request);
    const account = await registerChild(request, 'utkast');
    const childContext = await browser.newContext();
    const staffContext = await browser.newContext();
    try {
      const child = new ChildChatPage(await childContext.newPage());
      await child.logIn(account);
      await child.startChat();
      await child.expectInQueue();
      const id = await openChatOf(request, account);

      const staffPage = await staffContext.newPage();
      await new ConsolePage(staffPage).signInAsCounsellor();
      const console = new ConsoleCounsellorPage(staffPage);
      await expect(console.queueEntry(id)).toBeVisible();

      // The counsellor's own list answers late (a slow network), the queue's reload on time: the
      // accepted chat is then in neither list for a while.
      let release!: () => void;
      const late = new Promise<void>((resolve) => (release = resolve));
      await staffPage.route(
        (url) => url.pathname === '/portal/staff/conversations',
        async (route) => {
          await late;
          await route.continue();
        },
      );
      await console.takeNextButton.click();
      const chat = console.chat(id);
      await chat.input.fill('Hej! Jag heter');
      await expect(console.queueEntry(id)).toHaveCount(0);
      await expect(chat.input).toHaveValue('Hej! Jag heter');

      release();
      await expect(chat.status).toHaveText('Aktiv chatt');
      await expect(chat.panel).toContainText('13 år');
      await chat.input.pressSequentially(' Kim.');
      await expect(chat.input).toHaveValue('Hej! Jag heter Kim.');
      await chat.panel.getByRole('button', { name: 'Skicka' }).click();
      await child.expectMessage('Hej! Jag heter Kim.');
    } finally {
      await childContext.close();
      await staffContext.close();
    }
  });
});
