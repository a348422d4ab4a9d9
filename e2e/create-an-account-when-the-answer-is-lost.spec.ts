import { randomUUID } from 'node:crypto';
import { expect, test } from './support/test.ts';
import { CreateAccountPage } from '../harness/page-models/create-account-page.ts';
import { startFaultProxy, type FaultProxy } from '../harness/fault-proxy.ts';

/**
 * A child creates an account on a bad line: the registration reaches the server, which creates the
 * account, and its answer is lost. The form says the server could not be reached, and the child
 * sends it again; that must sign them in to the account the first try made, not tell them that
 * their own username is taken (which would leave them an account they never got into).
 */
let proxy: FaultProxy;
test.beforeAll(async () => {
  proxy = await startFaultProxy({ target: test.info().project.use.baseURL! });
});
test.afterEach(() => proxy.clearRules());
test.afterAll(async () => proxy?.close());

test('a child whose registration answer was lost sends the form again and is signed in to that account', async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: proxy.origin });
  const page = await context.newPage();
  const create = new CreateAccountPage(page);
  await create.goto('mail');
  const username = `tappat-svar-${randomUUID().slice(0, 8)}`;
  await create.fill({
    username,
    password: 'mitt-losenord-1',
    birthYear: String(new Date().getFullYear() - 14),
    gender: 'Vill inte välja',
  });
  await expect(create.usernameStatus).toHaveText('Användarnamnet är ledigt.');

  // The server creates the account; the answer never reaches the phone.
  const lost = proxy.addRule({ method: 'POST', path: /\/api\/accounts\/registercontact$/, action: 'drop' });
  await create.submit.click();
  await expect(
    create.form.getByText('Det gick inte att nå servern. Kontrollera internetuppkopplingen och försök igen.'),
  ).toBeVisible();
  expect(lost.hits).toBeGreaterThan(0);
  lost.remove();

  // Sent again: the name is the child's own now, and the password they gave opens it.
  await create.submit.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Hej!', exact: true })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('button', { name: 'Logga ut' })).toBeVisible();
  await expect(page.getByText('Användarnamnet är upptaget. Välj ett annat.')).toHaveCount(0);
  await context.close();
});
