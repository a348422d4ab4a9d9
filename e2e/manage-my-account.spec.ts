import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from './support/test.ts';
import { childToken, registerChild } from '../harness/actors/child-account.ts';
import { ChildServerView } from '../harness/actors/child-server-view.ts';
import { Counsellor } from '../harness/actors/counsellor.ts';
import { DEMO_USER } from '../harness/page-models/app-page.ts';
import { logInChild } from '../harness/page-models/child-login.ts';
import { CreateAccountPage } from '../harness/page-models/create-account-page.ts';
import { LoggedOutPage } from '../harness/page-models/logged-out-page.ts';
import { MyPagesPage } from '../harness/page-models/my-pages-page.ts';
import { SettingsPage } from '../harness/page-models/settings-page.ts';
import { accessibilityViolations, violationsAtBothWidths } from './support/accessibility.ts';

/*
 * The server allows 5 registrations per client address in 15 minutes: this file registers three
 * accounts (one through the form, two through the API).
 */

/** The header's 'Notiser' button; with something new it is described so (and shows its dot). */
const notificationsButton = (page: Page, something: boolean) => {
  const button = page.getByRole('banner').getByRole('button', { name: 'Notiser', exact: true });
  return something
    ? button.and(page.locator('[aria-describedby]')).filter({ hasText: 'Det finns något nytt' })
    : button.and(page.locator(':not([aria-describedby])'));
};

test('a child creates an account, logs in with it, changes the password and logs in with the new one', async ({
  page,
}) => {
  const create = new CreateAccountPage(page);
  await create.goto('mail');
  await expect(page.getByText('Skapa ett konto för att skriva till en kurator.')).toBeVisible();

  await create.submit.click();
  await expect(create.alerts.filter({ hasText: 'Måste anges.' })).toHaveCount(5);
  await expect(create.alerts.filter({ hasText: 'Du behöver godkänna för att skapa ett konto.' })).toHaveCount(
    1,
  );

  await create.username.fill(DEMO_USER.username);
  await expect(create.usernameStatus).toHaveText('Användarnamnet är upptaget.');
  await create.password.fill('kort');
  await create.password.blur();
  await expect(create.alerts.filter({ hasText: 'Lösenordet måste ha minst 8 tecken.' })).toBeVisible();

  const username = `nytt-konto-${randomUUID().slice(0, 8)}`;
  const password = 'mitt-losenord-1';
  // A password on the server's list of common ones is refused, and said so beside the field.
  await create.fill({
    username,
    password: 'sommar2024',
    birthYear: String(new Date().getFullYear() - 13),
    gender: 'Icke-binär',
  });
  await expect(create.usernameStatus).toHaveText('Användarnamnet är ledigt.');
  await create.submit.click();
  await expect(create.password).toHaveAccessibleDescription(
    /Lösenordet är för vanligt och lätt att gissa\. Välj ett annat\./,
  );
  await create.password.fill(password);
  await create.repeatPassword.fill(password);
  await create.submit.click();

  await expect(page).toHaveURL(/\/start$/);
  await expect(create.logoutButton).toBeVisible();
  await expect(page.getByText('Ditt konto är skapat. Välkommen!')).toBeVisible();

  await create.header.getByRole('button', { name: 'Inställningar' }).click();
  const settings = new SettingsPage(page);
  await expect(settings.heading).toBeVisible();
  await expect(page.getByRole('main').getByText(username)).toBeVisible();

  const newPassword = 'ett-nytt-losenord-2';
  await settings.changePasswordTo(password, newPassword, 'nagot-annat-3');
  await expect(settings.passwordAlerts).toHaveText('Lösenorden stämmer inte överens.');
  await settings.changePasswordTo('inte-mitt-losenord', newPassword);
  await expect(settings.passwordAlerts).toHaveText('Fel lösenord. Skriv ditt nuvarande lösenord.');
  await settings.changePasswordTo(password, 'hemligt-123');
  await expect(settings.newPassword).toHaveAccessibleDescription(
    /Lösenordet är för vanligt och lätt att gissa\. Välj ett annat\./,
  );
  await settings.changePasswordTo(password, newPassword);
  await expect(page.getByText('Ditt lösenord är bytt.')).toBeVisible();
  await expect(settings.currentPassword).toHaveValue('');
  // The server ended every session of the account; this device signed in again with the new one.
  await page.reload();
  await expect(settings.heading).toBeVisible();
  await expect(page).toHaveURL(/\/installningar$/);
  await expect(page.getByRole('main').getByText(username)).toBeVisible();

  await settings.logOut();
  await expect(page).toHaveURL(/\/utloggad$/);
  const login = await settings.openLoginModal();
  await login.logIn(username, password);
  await expect(login.alerts).toHaveText('Fel användarnamn eller lösenord.');
  await login.password.fill(newPassword);
  await login.submit.click();
  await expect(settings.loginDialog).toBeHidden();
  await expect(settings.logoutButton).toBeVisible();

  const myPages = new MyPagesPage(page);
  await myPages.goto();
  await expect(myPages.username).toHaveText(username);
});

test("a counsellor's answer lights the notification dot without a reload; reading it on my pages clears it", async ({
  page,
  request,
}) => {
  const child = await registerChild(request, 'notis');
  await logInChild(page, child);
  await expect(notificationsButton(page, false)).toBeVisible();

  const mail = await request.post('/portal/mail', {
    headers: { Authorization: `Bearer ${await childToken(request, child)}`, 'X-App-Variant': 'Barn' },
    data: { subject: 'En fråga', text: 'Hej, jag undrar en sak.' },
  });
  expect(mail.ok()).toBe(true);
  const mailId = ((await mail.json()) as { id: number }).id;
  const counsellor = new Counsellor(request);
  await counsellor.logIn();
  expect((await counsellor.queue()).map((q) => q.id)).toContain(mailId);
  await counsellor.write(mailId, 'Hej! Här är ett svar från mig.');

  await expect(notificationsButton(page, true)).toBeVisible();
  await notificationsButton(page, true).click();
  const myPages = new MyPagesPage(page);
  await expect(myPages.heading).toBeVisible();
  await expect(myPages.notificationItems).toHaveCount(1);
  const first = myPages.notificationItems.first();
  await expect(first).toContainText('Du har fått ett svar från en kurator.');
  await expect(first).toContainText('Ny');
  await expect(first.getByRole('link', { name: 'Visa meddelandet' })).toHaveAttribute(
    'href',
    `/mina-sidor/inlagg/${mailId}`,
  );

  await first.getByRole('button', { name: 'Markera som läst' }).click();
  await expect(notificationsButton(page, false)).toBeVisible();
  await expect(first).toContainText('Läst');
  await expect(first.getByRole('button', { name: 'Markera som läst' })).toHaveCount(0);

  // A second answer while my pages is open: the list and the dot follow without a reload.
  await counsellor.write(mailId, 'Och ett svar till.');
  await expect(myPages.notificationItems).toHaveCount(2);
  await expect(notificationsButton(page, true)).toBeVisible();
  await myPages.notificationItems.first().getByRole('button', { name: 'Ta bort' }).click();
  await expect(myPages.notificationItems).toHaveCount(1);
  await expect(notificationsButton(page, false)).toBeVisible();

  await page.reload();
  await expect(myPages.notificationItems).toHaveCount(1);
  await expect(myPages.notificationItems.first()).toContainText('Läst');
});

test('the demo child reads a message from the organisation and deletes it after confirming', async ({
  page,
}) => {
  await logInChild(page, DEMO_USER);
  const myPages = new MyPagesPage(page);
  await myPages.header.getByRole('button', { name: 'Mina sidor' }).click();
  await expect(myPages.heading).toBeVisible();

  const message = myPages.contactMessageItems.filter({ hasText: 'Välkommen till Stödlinjen' });
  await expect(message).toHaveCount(1);
  await expect(message.getByRole('heading', { level: 3 })).toHaveText('Välkommen till Stödlinjen');
  // The text's newlines are line breaks, and the text is never HTML.
  await expect(message.locator('br')).toHaveCount(2);
  await expect(message).toContainText('Hej och välkommen!');
  await expect(message).toContainText('Ny');

  await message.getByRole('button', { name: 'Markera som läst' }).click();
  await expect(message).toContainText('Läst');
  await expect(message.getByRole('button', { name: 'Markera som läst' })).toHaveCount(0);

  const dialog = page.getByRole('dialog', { name: 'Ta bort meddelandet?' });
  await message.getByRole('button', { name: 'Ta bort' }).click();
  await dialog.getByRole('button', { name: 'Avbryt' }).click();
  await expect(dialog).toBeHidden();
  await expect(message).toHaveCount(1);

  await message.getByRole('button', { name: 'Ta bort' }).click();
  await dialog.getByRole('button', { name: 'Ja, ta bort' }).click();
  await expect(message).toHaveCount(0);
  await expect(myPages.contactMessages).toContainText('Du har inga meddelanden från oss.');

  await page.reload();
  await expect(myPages.contactMessages).toContainText('Du har inga meddelanden från oss.');
});

test('a child deletes the account after reading what is erased, is signed out and cannot log in again', async ({
  page,
  request,
}) => {
  const child = await registerChild(request, 'tabort');
  await logInChild(page, child);
  const settings = new SettingsPage(page);
  await settings.goto();

  await settings.deleteAccountButton.click();
  await expect(settings.deleteDialog).toContainText('Ditt användarnamn, ditt lösenord och dina uppgifter');
  await settings.deleteDialog.getByRole('button', { name: 'Avbryt' }).click();
  await expect(settings.deleteDialog).toBeHidden();
  await expect(settings.logoutButton).toBeVisible();

  await settings.deleteAccountButton.click();
  await settings.deleteDialog.getByRole('button', { name: 'Ja, ta bort mitt konto' }).click();

  const loggedOut = new LoggedOutPage(page);
  await expect(page).toHaveURL(/\/utloggad$/);
  await expect(loggedOut.heading).toBeVisible();
  await expect(loggedOut.sessionExpiredText).toHaveCount(0);
  await expect(settings.loginButton).toBeVisible();

  await loggedOut.loginForm.logIn(child.username, child.password);
  await expect(loggedOut.loginForm.alerts).toHaveText('Fel användarnamn eller lösenord.');
});

for (const width of [320, 1280]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });

    test('the create-account page, with its error texts showing, has no accessibility violations', async ({
      page,
    }) => {
      const create = new CreateAccountPage(page);
      await create.goto('chat');
      await create.username.fill(DEMO_USER.username);
      await expect(create.usernameStatus).toHaveText('Användarnamnet är upptaget.');
      await create.submit.click();
      await expect(create.alerts.first()).toBeVisible();
      expect(await accessibilityViolations(page)).toEqual([]);
    });

    test('settings and my pages have no accessibility violations', async ({ page }) => {
      await logInChild(page, DEMO_USER);
      const settings = new SettingsPage(page);
      await settings.goto();
      await settings.changePassword.click();
      await expect(settings.passwordAlerts).toHaveCount(3);
      expect(await accessibilityViolations(page)).toEqual([]);

      await settings.deleteAccountButton.click();
      await expect(settings.deleteDialog).toBeVisible();
      expect(await accessibilityViolations(page)).toEqual([]);
      await settings.deleteDialog.getByRole('button', { name: 'Avbryt' }).click();

      const myPages = new MyPagesPage(page);
      await myPages.goto();
      await expect(myPages.heading).toBeVisible();
      await expect(myPages.contactMessages.getByText('Hämtar meddelanden...')).toHaveCount(0);
      await expect(myPages.notifications.getByText('Hämtar notiser...')).toHaveCount(0);
      expect(await accessibilityViolations(page)).toEqual([]);
    });
  });
}

test('a child changes the birth year and gender given at registration, and they are kept', async ({
  page,
  request,
}) => {
  const account = await registerChild(request, 'om-mig');
  await logInChild(page, account);
  const settings = new SettingsPage(page);
  await settings.goto();
  const aboutYou = page.getByRole('form', { name: 'Om dig' });
  const birthYear = aboutYou.getByLabel('Födelseår');
  const thisYear = new Date().getFullYear();
  // What the registration gave: 13 years back, 'Kille'.
  await expect(birthYear).toHaveValue(String(thisYear - 13));
  await expect(aboutYou.getByRole('radio', { name: 'Kille' })).toBeChecked();
  expect(await violationsAtBothWidths(page)).toEqual([]);

  await birthYear.selectOption(String(thisYear - 15));
  await aboutYou.getByRole('radio', { name: 'Vill inte välja' }).check();
  await aboutYou.getByRole('button', { name: 'Spara' }).click();
  await expect(page.getByText('Dina uppgifter är sparade.')).toBeVisible();

  const server = new ChildServerView(request, await childToken(request, account));
  expect((await server.profile()).properties).toMatchObject({
    birthYear: String(thisYear - 15),
    gender: 'x',
  });
  await page.reload();
  await expect(aboutYou.getByLabel('Födelseår')).toHaveValue(String(thisYear - 15));
  await expect(aboutYou.getByRole('radio', { name: 'Vill inte välja' })).toBeChecked();
});
