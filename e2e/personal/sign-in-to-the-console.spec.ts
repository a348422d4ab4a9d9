import { expect, test, type Page } from '../support/test.ts';
import { childToken, registerChild } from '../../harness/actors/child-account.ts';
import { ConsoleCounsellorPage } from '../../harness/page-models/console-counsellor-page.ts';
import { ConsolePage } from '../../harness/page-models/console-page.ts';
import { accessibilityViolations } from '../support/accessibility.ts';

async function fitsWidth(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

test('wrong credentials are refused in Swedish, and signing out returns to the sign-in form', async ({
  page,
}) => {
  const shell = new ConsolePage(page);
  await shell.goto();
  await shell.submit.click();
  await expect(shell.alert).toHaveText('Ange ditt användarnamn.');
  // An unknown name: a wrong password for 'kurator' would count towards locking that account.
  await shell.signIn('ingen-sadan-person', 'fel-losenord');
  await expect(shell.alert).toHaveText('Fel användarnamn eller lösenord.');

  await shell.signInAsCounsellor();
  // A reload keeps the session (sessionStorage), and the route.
  await page.reload();
  await expect(shell.signOutButton).toBeVisible();
  await expect(page).toHaveURL(/\/personal\/kurator$/);
  expect(await page.evaluate(() => Object.keys(localStorage))).toEqual([]);

  await shell.signOut();
  await expect(page.getByText('Du är utloggad.')).toBeVisible();
  await page.reload();
  await expect(shell.signInForm).toBeVisible();
});

test.describe('at 320 px', () => {
  test.use({ viewport: { width: 320, height: 720 } });

  test('sign-in, queue and chat have no accessibility violations and fit the width', async ({
    page,
    request,
  }) => {
    const account = await registerChild(request, 'smal');
    const token = await childToken(request, account);
    const created = await request.post('/portal/chat', {
      headers: { Authorization: `Bearer ${token}`, 'X-App-Variant': 'Barn' },
      data: {
        subject: 'Chatt',
        text: '',
        properties: { age: '12', gender: 'non-binary', device: 'Mobile, Android, Chrome 140, PWA: Ja' },
      },
    });
    expect(created.ok()).toBe(true);
    const id = ((await created.json()) as { id: number }).id;

    const shell = new ConsolePage(page);
    await shell.goto();
    await shell.submit.click();
    await expect(shell.alert).toBeVisible();
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(await fitsWidth(page)).toBe(true);

    await shell.signInAsCounsellor();
    const console = new ConsoleCounsellorPage(page);
    const entry = console.queueEntry(id);
    await expect(entry).toContainText('12 år');
    await expect(entry).toContainText('Icke-binär');
    await expect(entry).toContainText('PWA: Ja');
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(await fitsWidth(page)).toBe(true);

    await entry.getByRole('button', { name: /^Ta emot/ }).click();
    const chat = console.chat(id);
    await expect(chat.status).toHaveText('Aktiv chatt');
    await chat.send('Hej!');
    await expect(chat.message('Hej!')).toContainText('Skickat');
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(await fitsWidth(page)).toBe(true);

    await chat.panel.getByRole('button', { name: 'Avsluta chatten' }).click();
    const dialog = page.getByRole('dialog', { name: 'Avsluta chatten?' });
    await expect(dialog).toBeVisible();
    expect(await accessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Ja, avsluta' }).click();
    await expect(chat.status).toHaveText('Chatten är avslutad');

    // Mail arrives live in the mail queue; answering it takes it out of the queue.
    const mail = await request.post('/portal/mail', {
      headers: { Authorization: `Bearer ${token}`, 'X-App-Variant': 'Barn' },
      data: {
        subject: 'En fråga',
        text: 'Hur gör man när man är orolig?',
        properties: { age: '15', gender: 'female', device: 'Desktop, Windows, Win32, Edge, 131.0, PWA: Nej' },
      },
    });
    expect(mail.ok()).toBe(true);
    await console.mailQueue.getByRole('button', { name: 'Läs och svara: En fråga' }).click();
    const thread = page.getByRole('article', { name: 'Mejl: En fråga' });
    // SPEC §3 author label from the child's profile (registered a boy of 13), never the username.
    await expect(
      thread.getByRole('listitem').filter({ hasText: 'Hur gör man när man är orolig?' }),
    ).toContainText('Kille, 13 år');
    expect(await accessibilityViolations(page)).toEqual([]);
    await thread.getByRole('textbox', { name: 'Svar' }).fill('Bra att du skriver. Berätta mer!');
    await thread.getByRole('button', { name: 'Skicka' }).click();
    await expect(
      thread.getByRole('listitem').filter({ hasText: 'Bra att du skriver. Berätta mer!' }),
    ).toContainText('Skickat');
    await expect(page.getByRole('button', { name: 'Läs och svara: En fråga' })).toHaveCount(0);
  });
});
