import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext } from '../support/test.ts';
import { GroupStartPage } from '../../harness/page-models/group-start-page.ts';
import { MeetingDetailPage } from '../../harness/page-models/meeting-detail-page.ts';

test('a participant hands in homework, downloads it, keeps it from others and deletes it', async ({
  page,
  request,
}) => {
  const start = new GroupStartPage(page);
  await start.logIn();
  await start.openFirstUpcoming();

  const detail = new MeetingDetailPage(page);
  await detail.tasks.click();
  await expect(detail.main.getByText(/^Max 10 MB per fil och 50 MB totalt\./)).toBeVisible();
  await expect(detail.main.getByText('Du har inte skickat in några filer.')).toBeVisible();

  await detail.main.locator('input[type=file]').setInputFiles({
    name: 'mina-tankar.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('Det här är min uppgift.\n'),
  });
  await expect(page.getByRole('status').getByText('Uppgiften har skickats in.')).toBeVisible();
  await expect(page.getByRole('status').getByText('Information')).toBeVisible();
  const file = detail.main.getByRole('button', { name: /^mina-tankar\.txt/ });
  await expect(file).toBeVisible();
  await expect(detail.main.locator('input[type=file]')).toHaveValue('');

  // Download: the same bytes come back.
  const downloading = page.waitForEvent('download');
  await file.click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('mina-tankar.txt');
  expect((await readFile(await download.path())).toString()).toBe('Det här är min uppgift.\n');

  // Another participant is refused the file (403), whatever they know of it.
  const meetingId = Number(/\/tillfalle\/(\d+)$/.exec(page.url())?.[1]);
  const a = await tokenOf(request, 'DEMOKOD-0001');
  const b = await tokenOf(request, 'DEMOKOD-0002');
  const messages = await request.get(
    `/portal/features/meetings/meetingsapplicationfeature-id/meetingmessages?meetingId=${meetingId}`,
    {
      headers: { Authorization: `Bearer ${a}` },
    },
  );
  const messageId = ((await messages.json()) as { value: Array<{ id: number }> }).value.at(-1)!.id;
  const fileUrl = `/portal/meetingmessagefile?meetingId=${meetingId}&meetingMessageId=${messageId}&fileName=mina-tankar.txt`;
  expect((await request.get(fileUrl, { headers: { Authorization: `Bearer ${a}` } })).status()).toBe(200);
  expect((await request.get(fileUrl, { headers: { Authorization: `Bearer ${b}` } })).status()).toBe(403);

  await detail.main.getByRole('button', { name: 'Ta bort mina-tankar.txt' }).click();
  await page.getByRole('dialog', { name: 'Bekräfta' }).getByRole('button', { name: 'Ja' }).click();
  await expect(file).toHaveCount(0);
  await expect(detail.main.getByText('Du har inte skickat in några filer.')).toBeVisible();
});

test('a file of a type that is not allowed is refused with a Swedish message', async ({ page }) => {
  const start = new GroupStartPage(page);
  await start.logIn();
  await start.openFirstUpcoming();
  const detail = new MeetingDetailPage(page);
  await detail.tasks.click();
  // A program renamed to .pdf: the server looks at the content, not the name.
  await detail.main.locator('input[type=file]').setInputFiles({
    name: 'uppgift.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(64)]),
  });
  await expect(
    page
      .getByRole('status')
      .getByText(
        'Den filtypen går inte att skicka in. Välj en PDF, en bild, ett Word-dokument eller en textfil.',
      ),
  ).toBeVisible();
  await expect(detail.main.getByText('Du har inte skickat in några filer.')).toBeVisible();
});

async function tokenOf(request: APIRequestContext, code: string): Promise<string> {
  const res = await request.post('/connect/token', {
    form: {
      grant_type: 'password',
      client_id: 'portal-web',
      scope: 'openid profile portal offline_access',
      username: code,
      password: '',
    },
  });
  return ((await res.json()) as { access_token: string }).access_token;
}
