import { expect, test, type Page } from './support/test.ts';
import { registerChild, type ChildAccount } from '../harness/actors/child-account.ts';
import { BrowserProfile } from './support/browser-profile.ts';
import { loginDataRows, loginStoreTraces } from './support/saved-logins.ts';
import { StartPage } from '../harness/page-models/start-page.ts';

// Shared-device mode keeps the session in memory, but the browser has stores of its own: Chromium's
// password manager offers to save a login (its 'save?' bubble), and a bubble left unanswered is
// written into the profile's `Login Data` with the login name and the site (the `stats` table)
// when the page changes, at the logout. Someone who picks up the shared computer after the child,
// or copies its profile folder, would read who signed in where. The app's own traces are the other
// specs' (use-a-shared-phone, leave-nothing-on-disk-after-logging-out); these read the browser's.

/** Signs in from the start page's login modal, in shared-device mode or not, typing as a person does. */
async function logIn(page: Page, account: ChildAccount, sharedDevice: boolean) {
  const start = new StartPage(page);
  await start.goto();
  const login = await start.openLoginModal();
  if (sharedDevice) await login.sharedDevice.check();
  await login.username.pressSequentially(account.username);
  await login.password.pressSequentially(account.password);
  await login.submit.click();
  await expect(start.logoutButton).toBeVisible();
}

/**
 * A child signs in with a profile folder of its own and ends the session with `leave`; the browser
 * is closed. Chromium takes the app's first move to another page after the login (the logout's
 * '/utloggad', or any link of the app) as the sign of a login that worked, and shows its bubble
 * then; closing the browser leaves it unanswered. Answers where the login stores hold
 * the child's login name or the site, and the rows of `Login Data` that name a site.
 */
async function signInAndLeave(
  playwright: Parameters<typeof BrowserProfile.create>[0],
  account: ChildAccount,
  sharedDevice: boolean,
  leave: (page: Page) => Promise<void>,
) {
  const profile = await BrowserProfile.create(playwright);
  try {
    const { context, page } = await profile.launch();
    await logIn(page, account, sharedDevice);
    await leave(page);
    await context.close();
    const site = new URL(test.info().project.use.baseURL!).host;
    return {
      traces: await loginStoreTraces(profile.folder, [account.username, site]),
      rows: loginDataRows(profile.folder),
    };
  } finally {
    await profile.remove();
  }
}

const logOut = async (page: Page) => {
  await new StartPage(page).logOut();
  await expect(page).toHaveURL(/\/utloggad$/);
};
const quickExit = async (page: Page) => {
  await page.getByRole('button', { name: 'Lämna sidan' }).first().click();
  await expect(page.getByRole('heading', { name: 'Väder idag' })).toBeVisible();
};

test('signed in on the normal mode, the password manager still offers to save the login: the scan finds it', async ({
  playwright,
  request,
}) => {
  // The positive control: what the scans below must not find, they find here.
  const account = await registerChild(request, 'sparad');
  const { traces, rows } = await signInAndLeave(playwright, account, false, logOut);
  const site = new URL(test.info().project.use.baseURL!).host;
  expect(rows).toContainEqual(expect.stringMatching(new RegExp(`${site}.* ${account.username}$`)));
  expect(traces).toEqual(expect.arrayContaining([`Login Data: ${account.username}`, `Login Data: ${site}`]));
});

for (const [how, leave] of [
  ['logging out', logOut],
  ['a quick exit', quickExit],
] as const) {
  test(`on a shared device, after ${how} the browser’s login stores name neither the child nor the site`, async ({
    playwright,
    request,
  }) => {
    const account = await registerChild(request, 'delad');
    const { traces, rows } = await signInAndLeave(playwright, account, true, leave);
    expect(rows).toEqual([]);
    expect(traces).toEqual([]);
  });
}
