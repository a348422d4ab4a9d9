import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext } from '../support/test.ts';
import { childToken, registerChild, type ChildAccount } from '../../harness/actors/child-account.ts';
import { logInChild } from '../../harness/page-models/child-login.ts';
import { ConsolePage } from '../../harness/page-models/console-page.ts';
import { ThreadPage } from '../../harness/page-models/thread-page.ts';
import { accessibilityViolations } from '../support/accessibility.ts';

/** A mail from the child, as the app's outbox sends it; answers its conversation id. */
async function mailFrom(request: APIRequestContext, account: ChildAccount, subject: string) {
  const res = await request.post('/portal/mail', {
    headers: {
      Authorization: `Bearer ${await childToken(request, account)}`,
      'X-App-Variant': 'Barn',
      'Idempotency-Key': randomUUID(),
    },
    data: { subject, text: 'Jag vill berätta något' },
  });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { id: number }).id;
}

test.describe('notes for the next counsellor', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('a note kept on one mail is there when the same child’s next mail is opened, and never in the child’s app', async ({
    browser,
    request,
  }) => {
    test.setTimeout(90_000);
    const account = await registerChild(request, 'anteckning');
    const tag = randomUUID().slice(0, 6);
    const first = `Skolan ${tag}`;
    const firstId = await mailFrom(request, account, first);
    const note = `Vill inte att föräldrarna kontaktas (${tag}).`;

    const staffContext = await browser.newContext();
    const childContext = await browser.newContext();
    try {
      const staffPage = await staffContext.newPage();
      const shell = new ConsolePage(staffPage);
      await shell.signInAsCounsellor();
      await staffPage.getByRole('button', { name: `Läs och svara: ${first}` }).click();
      const panel = staffPage.getByRole('article', { name: `Mejl: ${first}` });
      await expect(panel.getByText('Inga anteckningar från tidigare samtal.')).toBeVisible();
      // A mail is the counsellor's to keep a note on once they have answered it.
      await panel.getByRole('textbox', { name: 'Svar' }).fill('Tack för att du skriver. Berätta mer.');
      await panel.getByRole('button', { name: 'Skicka' }).click();
      await expect(
        panel.getByRole('list', { name: 'Meddelanden' }).getByRole('listitem').filter({ hasText: 'Skickat' }),
      ).toBeVisible();
      await panel.getByRole('textbox', { name: 'Anteckning för nästa kurator' }).fill(note);
      await panel.getByRole('button', { name: 'Spara anteckning' }).click();
      await expect(panel.getByRole('status').filter({ hasText: 'Anteckningen är sparad.' })).toBeVisible();
      await expect(panel.getByRole('list', { name: 'Anteckningar om barnet' })).toContainText(note);
      expect(await accessibilityViolations(staffPage)).toEqual([]);

      // The child writes again; whoever opens that mail reads what was noted, with who wrote it.
      const second = `Hemma ${tag}`;
      await mailFrom(request, account, second);
      await staffPage.reload();
      await staffPage.getByRole('button', { name: `Läs och svara: ${second}` }).click();
      const next = staffPage.getByRole('article', { name: `Mejl: ${second}` });
      const notes = next.getByRole('list', { name: 'Anteckningar om barnet' });
      await expect(notes).toContainText(note);
      await expect(notes).toContainText('Kim');

      // The child's own view of the first mail holds nothing of it.
      const childPage = await childContext.newPage();
      await logInChild(childPage, account);
      await childPage.goto(`/mina-sidor/inlagg/${firstId}`);
      const thread = new ThreadPage(childPage);
      await expect(thread.heading).toHaveText(first);
      await expect(thread.messages.first()).toBeVisible();
      await expect(childPage.locator('body')).not.toContainText('föräldrarna kontaktas');
    } finally {
      await staffContext.close();
      await childContext.close();
    }
  });
});
