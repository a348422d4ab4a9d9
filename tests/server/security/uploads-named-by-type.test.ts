import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, login, type TestServer } from '../../../harness/test-server.ts';
import { startTarget } from '../../../harness/attack.ts';

/**
 * Attack: an upload that keeps a misleading extension. A text file named `.html` or `.svg` was
 * stored and offered for download under that name. Stored files are now named after the type their
 * content was recognised as.
 */
const MEETINGS = '/portal/features/meetings/meetingsapplicationfeature-id';
let server: TestServer;
let token: string;
let meetingId: number;
beforeAll(async () => {
  server = await startTarget({ variant: 'gruppstod' });
  token = (await login(server.url, 'DEMOKOD-0001')).access_token;
  const list = await api(server.url, `${MEETINGS}/meetings`, { token, variant: 'Gruppstod' });
  meetingId = (list.body as { value: Array<{ id: number; state: string }> }).value.find(
    (m) => m.state === 'InProgress',
  )!.id;
});
afterAll(async () => server?.dispose());

async function upload(name: string, content: string | Uint8Array<ArrayBuffer>) {
  const form = new FormData();
  form.set('Subject', 'Uppgift');
  form.set('Text', '');
  form.set('MessageType', '1');
  form.set('MeetingRuid', String(meetingId));
  form.set('DocumentName', name);
  form.set('DocumentContent', new Blob([content]), name);
  const res = await fetch(`${server.url}${MEETINGS}/meetingmessage`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'X-App-Variant': 'Gruppstod' },
    body: form,
  });
  expect(res.status).toBe(200);
  const id = ((await res.json()) as { value: number }).value;
  const messages = await api(server.url, `${MEETINGS}/meetingmessages?meetingId=${meetingId}`, {
    token,
    variant: 'Gruppstod',
  });
  const message = (
    messages.body as { value: Array<{ id: number; files: Array<{ name: string }> }> }
  ).value.find((m) => m.id === id)!;
  return { id, name: message.files[0]!.name };
}

describe('an uploaded file', () => {
  it('named .html but holding text is stored and served as .txt', async () => {
    const { id, name } = await upload('svar.html', '<script>alert(1)</script>');
    expect(name).toBe('svar.txt');
    const res = await fetch(
      `${server.url}/portal/meetingmessagefile?meetingId=${meetingId}&meetingMessageId=${id}&fileName=${encodeURIComponent(name)}`,
      { headers: { Authorization: `Bearer ${token}`, 'X-App-Variant': 'Gruppstod' } },
    );
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="svar\.txt"/);
  });

  it('named .svg is stored as .txt, and a PNG named .pdf as .png', async () => {
    expect(
      (await upload('bild.svg', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'))
        .name,
    ).toBe('bild.txt');
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    expect((await upload('rapport.pdf', png)).name).toBe('rapport.png');
  });

  it('loses the direction overrides and invisible characters of its name', async () => {
    // Shown, 'läxa\u202Eexe.txt' reads 'läxatxt.exe': an executable to the eye, text to the server.
    expect((await upload('läxa\u202Eexe.txt', 'Mitt svar')).name).toBe('läxaexe.txt');
    expect((await upload('svar\u200B\u2066.txt', 'Mitt svar')).name).toBe('svar.txt');
    expect((await upload('\u200F\u061Cmitt\u200Dsvar.txt', 'Mitt svar')).name).toBe('mittsvar.txt');
  });

  it('whose name already fits its type keeps it', async () => {
    expect((await upload('läxa.txt', 'Mitt svar')).name).toBe('läxa.txt');
  });
});
