import fs from 'node:fs';
import type { AssistantContent } from '../../contract/assistant.ts';
import { childToken, registerChild } from '../../harness/actors/child-account.ts';
import { ChildServerView } from '../../harness/actors/child-server-view.ts';
import { Counsellor } from '../../harness/actors/counsellor.ts';
import { AssistantPanel } from '../../harness/page-models/assistant-panel.ts';
import { ChildChatPage } from '../../harness/page-models/child-chat-page.ts';
import { StartPage } from '../../harness/page-models/start-page.ts';
import { violationsAtBothWidths } from '../support/accessibility.ts';
import { runAsProductionApp } from '../support/installed-app.ts';
import { expect, test } from '../support/test.ts';

const content = JSON.parse(
  fs.readFileSync(new URL('../../server/assistant/content.sv.json', import.meta.url), 'utf8'),
) as AssistantContent;
const topic = (id: string) => content.topics.find((t) => t.id === id)!;

test('a signed-out child opens the assistant, picks a topic, asks questions and sees the 112 line', async ({
  page,
  context,
}) => {
  const start = new StartPage(page);
  const assistant = new AssistantPanel(page);
  await start.goto();
  // Inactive until opened: no header toggle yet.
  await expect(assistant.headerToggle).toHaveCount(0);
  await assistant.open();
  await expect(assistant.heading).toBeFocused();
  await expect(assistant.panel.getByText(content.greeting)).toBeVisible();
  await expect(assistant.emergency).toHaveAttribute('href', 'tel:112');
  expect(await assistant.stateCookie()).toBe('Active');
  // SPEC §9: an app cookie, prefixed web_ in the browser, Secure, SameSite Lax, a session cookie.
  expect(await assistant.stateCookieDetails()).toMatchObject({
    name: 'web_assistant-state',
    secure: true,
    sameSite: 'Lax',
    path: '/',
    expires: -1,
  });
  expect((await context.cookies()).map((c) => c.name)).not.toContain('assistant-state');

  // The public token: JSON in the cookie assistant-token, 14400 s, Secure, SameSite=None.
  await expect
    .poll(async () => (await context.cookies()).some((c) => c.name === 'assistant-token'))
    .toBe(true);
  const cookie = (await context.cookies()).find((c) => c.name === 'assistant-token')!;
  expect(cookie).toMatchObject({ secure: true, sameSite: 'None', path: '/', httpOnly: false });
  expect(cookie.expires * 1000).toBeGreaterThan(Date.now() + 14_300_000);
  expect(cookie.expires * 1000).toBeLessThan(Date.now() + 14_500_000);
  const value = JSON.parse(decodeURIComponent(cookie.value)) as { access_token: string; expires_at: number };
  expect(value.access_token.split('.')).toHaveLength(3);
  expect(value.expires_at).toBeGreaterThan(Date.now());

  const feelings = topic('kanslor');
  await assistant.topic(feelings.title).click();
  await expect(assistant.log).toContainText(feelings.answer);
  await expect(assistant.panel.getByRole('button', { name: 'Starta chatt' })).toBeVisible();
  await expect(assistant.panel.getByRole('link', { name: 'Skriv ett meddelande' })).toHaveAttribute(
    'href',
    '/mina-sidor/nytt-inlagg',
  );
  const readMore = assistant.panel.getByRole('button', { name: 'Läs mer' });
  await readMore.click();
  await expect(readMore).toHaveAttribute('aria-expanded', 'true');
  await expect(assistant.panel.getByText(feelings.more!)).toBeVisible();

  await assistant.ask('Jag blir mobbad i skolan');
  await expect(assistant.log).toContainText(topic('skola-och-kompisar').answer);
  await assistant.ask('Vad kostar en cykel?');
  await expect(assistant.log).toContainText(content.unmatched.answer);
  await expect(assistant.panel.getByRole('button', { name: 'Starta chatt' })).toBeVisible();
  await expect(assistant.panel.getByRole('link', { name: 'Ring 112', exact: true })).toHaveAttribute(
    'href',
    'tel:112',
  );

  expect(await violationsAtBothWidths(page)).toEqual([]);

  // Escape minimises and gives focus back to the launcher; the header toggle reopens it.
  await page.keyboard.press('Escape');
  await expect(assistant.panel).toBeHidden();
  await expect(assistant.launcher).toBeFocused();
  expect(await assistant.stateCookie()).toBe('Minimized');
  await expect(assistant.headerToggle).toHaveAttribute('aria-pressed', 'false');
  await assistant.headerToggle.click();
  await expect(assistant.panel).toBeVisible();
  await expect(assistant.heading).toBeFocused();

  // The state and the conversation survive a reload (session cookie, sessionStorage).
  await page.reload();
  await expect(assistant.panel).toBeVisible();
  await expect(assistant.log).toContainText(content.unmatched.answer);
  await assistant.minimizeButton.click();
  await expect(assistant.panel).toBeHidden();
  await page.reload();
  await expect(start.loginButton).toBeVisible();
  await expect(assistant.panel).toBeHidden();
  await expect(assistant.headerToggle).toHaveAttribute('aria-pressed', 'false');
});

test('in the installed app the state cookie is prefixed pwa_ and lasts a year (SPEC §9)', async ({
  page,
  context,
}) => {
  // Opened from the home screen (iOS reports standalone on navigator; installedAsApp() reads it).
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'standalone', { get: () => true });
  });
  const assistant = new AssistantPanel(page);
  await new StartPage(page).goto();
  await assistant.open();
  const cookie = await assistant.stateCookieDetails('pwa_');
  expect(cookie).toMatchObject({ value: 'Active', secure: true, sameSite: 'Lax', path: '/' });
  const year = 31_536_000_000;
  expect(cookie!.expires * 1000).toBeGreaterThan(Date.now() + year - 60_000);
  expect(cookie!.expires * 1000).toBeLessThan(Date.now() + year + 60_000);
  expect((await context.cookies()).map((c) => c.name)).not.toContain('web_assistant-state');
  // The SPEC-named token cookie keeps its exact name and 14400 s in the app too.
  await expect
    .poll(async () => (await context.cookies()).find((c) => c.name === 'assistant-token')?.sameSite)
    .toBe('None');

  // The app finds its prefixed cookie again after a restart.
  await assistant.minimizeButton.click();
  await page.reload();
  await expect(assistant.headerToggle).toHaveAttribute('aria-pressed', 'false');
  expect(await assistant.stateCookie('pwa_')).toBe('Minimized');
});

test('at 320 px the panel is readable and usable from the keyboard', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  const assistant = new AssistantPanel(page);
  await new StartPage(page).goto();
  await assistant.launcher.focus();
  await page.keyboard.press('Enter');
  await expect(assistant.heading).toBeFocused();
  const feelings = topic('kanslor');
  await assistant.topic(feelings.title).focus();
  await page.keyboard.press('Enter');
  await expect(assistant.log).toContainText(feelings.answer);
  // Nothing wider than the screen.
  const overflow = await assistant.panel.evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const box = await assistant.panel.boundingBox();
  expect(box!.width).toBeLessThanOrEqual(320);
  expect(await violationsAtBothWidths(page, 'aside')).toEqual([]);
});

test('Starta chatt signs the child in and the chat starts with what was written to the assistant', async ({
  page,
  request,
}) => {
  const account = await registerChild(request, 'assistent');
  const assistant = new AssistantPanel(page);
  const chat = new ChildChatPage(page);
  await new StartPage(page).goto();
  await assistant.open();
  await assistant.topic(topic('kanslor').title).click();
  await assistant.ask('Jag är ledsen för att jag bråkat med min kompis');
  await assistant.share.check();
  await assistant.panel.getByRole('button', { name: 'Starta chatt' }).click();
  await expect(assistant.panel.getByRole('link', { name: 'Skapa konto' })).toBeVisible();
  await assistant.modalLoginForm().logIn(account.username, account.password);

  await expect(chat.dialog).toBeVisible();
  await expect(chat.messages).toContainText('Från assistenten:');
  await expect(chat.messages).toContainText('Ämne: Känslor');
  await expect(chat.messages).toContainText('Jag skrev: Jag är ledsen för att jag bråkat med min kompis');
  // Opening the chat minimised the assistant (SPEC §4).
  await expect(assistant.panel).toBeHidden();
  expect(await assistant.stateCookie()).toBe('Minimized');
  await expect(chat.logoutButton).toBeVisible();
});

test('a child who already chatted today is told so after signing in from the assistant', async ({
  page,
  request,
}) => {
  // Today's one chat (SPEC §9) is over.
  const account = await registerChild(request, 'assistent');
  const counsellor = new Counsellor(request);
  await counsellor.logIn();
  const earlier = await new ChildServerView(request, await childToken(request, account)).startChat('Hej');
  await counsellor.accept(earlier.id);
  await counsellor.write(earlier.id, 'Hej! Jag heter Kim och jag är kurator.');
  await counsellor.resolve(earlier.id);

  const assistant = new AssistantPanel(page);
  const chat = new ChildChatPage(page);
  await new StartPage(page).goto();
  await assistant.open();
  await assistant.topic(topic('kanslor').title).click();
  await assistant.panel.getByRole('button', { name: 'Starta chatt' }).click();
  await assistant.modalLoginForm().logIn(account.username, account.password);

  // Wherever the child is, a toast says why no chat opened.
  const toast = page.getByRole('status').filter({ hasText: 'Chatten startade inte' });
  await expect(toast).toContainText('Du har redan chattat idag. Du kan skriva ett meddelande i stället.');
  await expect(chat.dialog).toBeHidden();
  await expect(chat.logoutButton).toBeVisible();
});

test('a signed-in child who does not agree starts a chat without the assistant’s context', async ({
  page,
  request,
}) => {
  const account = await registerChild(request, 'assistent');
  const assistant = new AssistantPanel(page);
  const chat = new ChildChatPage(page);
  await chat.logIn(account);
  await assistant.open();
  await assistant.ask('hemligt att inte dela');
  await expect(assistant.share).not.toBeChecked();
  await assistant.panel.getByRole('button', { name: 'Starta chatt' }).click();
  await expect(chat.dialog).toBeVisible();
  await expect(chat.status).toContainText('Du väntar på din tur');
  await expect(chat.messages).not.toContainText('hemligt att inte dela');
  await expect(assistant.panel).toBeHidden();
});

test('the assistant panel opened while signed in has no accessibility violations at 320 and 1280 px', async ({
  page,
  request,
}) => {
  const account = await registerChild(request, 'assistent');
  const assistant = new AssistantPanel(page);
  await new ChildChatPage(page).logIn(account);
  await assistant.open();
  const feelings = topic('kanslor');
  await assistant.topic(feelings.title).click();
  await expect(assistant.log).toContainText(feelings.answer);
  await assistant.ask('Jag bråkar med min kompis');
  // Signed in, the panel offers the chat at once, with the choice to share what was written.
  await expect(assistant.share).toBeVisible();
  await expect(assistant.panel.getByRole('button', { name: 'Starta chatt' })).toBeVisible();
  expect(await violationsAtBothWidths(page)).toEqual([]);
});

test('offline, the assistant still shows the cached guided answers and the 112 line', async ({
  page,
  context,
}) => {
  test.setTimeout(60_000);
  // A dedicated worker, which the browser's offline emulation reaches (a SharedWorker it does not).
  await context.addInitScript(() => Reflect.deleteProperty(window, 'SharedWorker'));
  await runAsProductionApp(page);
  const assistant = new AssistantPanel(page);
  await new StartPage(page).goto();
  await assistant.open();
  await expect(assistant.topic(topic('familj').title)).toBeVisible();
  await assistant.minimizeButton.click();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 45_000 });

  await context.setOffline(true);
  await page.reload();
  await assistant.headerToggle.click();
  await expect(assistant.emergency).toBeVisible();
  await assistant.topic(topic('familj').title).click();
  await expect(assistant.log).toContainText(topic('familj').answer);
  await assistant.question.fill('Jag är ledsen');
  await assistant.send.click();
  await expect(assistant.panel.getByRole('alert')).toHaveText(
    'Du är inte ansluten till internet. Välj ett ämne ovan, så visas svaret ändå.',
  );
  await context.setOffline(false);
  await page.unrouteAll({ behavior: 'wait' });
});
