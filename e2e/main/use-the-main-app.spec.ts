import fs from 'node:fs';
import type { AssistantContent } from '../../contract/assistant.ts';
import { expect, test } from '../support/test.ts';
import { registerChild } from '../../harness/actors/child-account.ts';
import { Counsellor } from '../../harness/actors/counsellor.ts';
import { AssistantPanel } from '../../harness/page-models/assistant-panel.ts';
import { ChildChatPage } from '../../harness/page-models/child-chat-page.ts';
import { MyPagesPage } from '../../harness/page-models/my-pages-page.ts';
import { NewPostPage } from '../../harness/page-models/new-post-page.ts';
import { violationsAtBothWidths } from '../support/accessibility.ts';

const content = JSON.parse(
  fs.readFileSync(new URL('../../server/assistant/content.sv.json', import.meta.url), 'utf8'),
) as AssistantContent;
const feelings = content.topics.find((t) => t.id === 'kanslor')!;

/** 'Fråga assistenten' opens the panel, whose guided topics answer. */
async function askTheAssistantAboutFeelings(assistant: AssistantPanel) {
  await assistant.open();
  await expect(assistant.heading).toBeFocused();
  await expect(assistant.panel.getByText(content.greeting)).toBeVisible();
  await assistant.topic(feelings.title).click();
  await expect(assistant.log).toContainText(feelings.answer);
}

/**
 * The provider's main app: one start page offering everything the provider runs for a
 * child: a chat with a counsellor, a message, the way to the history, and the footer's link columns.
 */
test('a visitor sees how to sign in, create an account and reach 112, and the footer link columns', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Stödlinjen' })).toBeVisible();
  await expect(page.getByRole('main').getByRole('button', { name: 'Logga in' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Skapa konto' })).toHaveAttribute(
    'href',
    '/skapa-konto?style=mail',
  );
  await expect(page.getByRole('link', { name: 'Är det akut? Ring 112.' })).toHaveAttribute('href', 'tel:112');
  // The virtual assistant runs in the main app too, signed in or not.
  await expect(page.getByRole('button', { name: 'Fråga assistenten' })).toBeVisible();

  const footer = page.getByRole('navigation', { name: 'Länkar' });
  // SPEC §2 Root shell: columns of two links each.
  await expect(footer.getByRole('list').first().locator(':scope > li')).toHaveCount(3);
  await expect(footer.getByRole('link', { name: /Om oss/ })).toHaveAttribute('target', '_blank');
  await expect(footer.getByRole('button', { name: 'Integritetspolicy' })).toBeVisible();
  // SPEC §2 Root shell: the way back to the organisation's site, beside the columns.
  await expect(
    page.getByRole('contentinfo').getByRole('link', { name: 'Gå tillbaka till Stödlinjen' }),
  ).toHaveAttribute('target', '_blank');
  expect(await violationsAtBothWidths(page)).toEqual([]);
});

test('a signed-in child starts a chat, finds the message form and the history, and sends no properties', async ({
  page,
  request,
}) => {
  const account = await registerChild(request, 'huvudapp');
  const counsellor = new Counsellor(request);
  await counsellor.logIn();
  await counsellor.emptyQueue();

  const app = new ChildChatPage(page);
  await app.logIn(account);
  await expect(page.getByRole('heading', { name: 'Chatta med en kurator' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Skriv ett meddelande' })).toHaveAttribute(
    'href',
    '/mina-sidor/nytt-inlagg',
  );
  await expect(page.getByRole('link', { name: 'Dina meddelanden och tidigare chattar' })).toHaveAttribute(
    'href',
    '/mina-sidor#historik',
  );
  await expect(page.getByRole('button', { name: 'Fråga assistenten' })).toBeVisible();
  expect(await violationsAtBothWidths(page)).toEqual([]);

  await app.startChat();
  await app.expectInQueue();
  const chatId = await counsellor.waitingChat();
  // SPEC §7: the conversation properties come from the child-app variants only, not the main app.
  const queued = (await counsellor.queue()).find((q) => q.id === chatId) as { properties?: object };
  expect(queued.properties ?? {}).toEqual({});
  await counsellor.accept(chatId);
  await counsellor.write(chatId, 'Hej! Vad vill du prata om?');
  await app.expectActive();
  await expect(app.message('Hej! Vad vill du prata om?')).toBeVisible();
});

test('a visitor opens the assistant from the start page and gets an answer', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('main').getByRole('button', { name: 'Logga in' })).toBeVisible();
  await askTheAssistantAboutFeelings(new AssistantPanel(page));
});

test('a signed-in child follows the start page’s ways: a new message, the history and the assistant', async ({
  page,
  request,
}) => {
  const account = await registerChild(request, 'huvudapp');
  await new ChildChatPage(page).logIn(account);

  await page.getByRole('link', { name: 'Skriv ett meddelande' }).click();
  await expect(page).toHaveURL(/\/mina-sidor\/nytt-inlagg$/);
  const message = new NewPostPage(page);
  await expect(message.heading).toBeVisible();
  await expect(message.subject).toBeEditable();
  await expect(message.send).toBeVisible();

  await page.goBack();
  await page.getByRole('link', { name: 'Dina meddelanden och tidigare chattar' }).click();
  await expect(page).toHaveURL(/\/mina-sidor#historik$/);
  await expect(new MyPagesPage(page).heading).toBeVisible();
  // The anchor leads to the history itself, not just to the top of my pages.
  const history = page.getByRole('region', { name: 'Chatthistorik' });
  await expect(history.getByText('Du har inga avslutade chattar.')).toBeVisible();
  await expect(history).toBeInViewport();

  await page.goBack();
  await askTheAssistantAboutFeelings(new AssistantPanel(page));
});
