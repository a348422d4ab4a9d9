import { expect, test } from '../support/test.ts';
import { registerChild } from '../actors/child-account.ts';
import { Counsellor } from '../actors/counsellor.ts';
import { ChildChatPage } from '../page-models/child-chat-page.ts';
import { violationsAtBothWidths } from '../support/accessibility.ts';

/**
 * The provider's main app (issue 14): one start page offering everything the provider runs for a
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
