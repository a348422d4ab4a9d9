import { docx } from '../security/zip-writer.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { api, login, startTestServer, type TestServer } from '../../../harness/test-server.ts';
import type { Meeting, MeetingMessage } from '../../../contract/meetings.ts';
import { homeworkForm } from './walk-fixtures.ts';

let server: TestServer;
let a: string;
let b: string;
let child: string;
const BASE = '/portal/features/meetings/meetingsapplicationfeature-id';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

beforeAll(async () => {
  server = await startTestServer({ variant: 'gruppstod' });
  a = (await login(server.url, 'DEMOKOD-0001')).access_token;
  b = (await login(server.url, 'DEMOKOD-0002')).access_token;
  child = (await login(server.url, 'demo', 'demo-losenord')).access_token;
});
afterAll(async () => server.dispose());

const get = (path: string, token: string) => api(server.url, path, { token, variant: 'Gruppstod' });
async function meetings(token: string) {
  return ((await get(`${BASE}/meetings`, token)).body as { value: Meeting[] }).value;
}

function upload(
  token: string,
  meetingId: number,
  file: { name: string; type: string; data: Buffer } | null,
  text = '',
  key?: string,
) {
  const form = homeworkForm(
    meetingId,
    text,
    file && {
      name: file.name,
      declaredType: file.type,
      content: new Blob([new Uint8Array(file.data)], { type: file.type }),
    },
  );
  return fetch(`${server.url}${BASE}/meetingmessage`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${token}`,
      'X-App-Variant': 'Gruppstod',
      ...(key ? { 'Idempotency-Key': key } : {}),
    },
    body: form,
  });
}

describe('meetings of a participant', () => {
  it('lists the meetings of the participant’s series with the fields of SPEC §3', async () => {
    const list = await meetings(a);
    expect(list.map((m) => m.state).sort()).toEqual([
      'Cancelled',
      'Completed',
      'InProgress',
      'NotStarted',
      'NotStarted',
    ]);
    const m = list.find((x) => x.state === 'InProgress')!;
    expect(m).toMatchObject({
      meetingId: m.id,
      isActive: true,
      participantsCount: 3,
      meetingType: 'Meeting',
      sessionState: 'InProgress',
    });
    expect(Date.parse(m.startDate)).toBeLessThan(Date.now());
    expect(Date.parse(m.endDate)).toBeGreaterThan(Date.now());
    expect(m.descriptionBodyContentSize).toBe(m.descriptionBodyContent.length);
  });

  it('shows nothing to an account outside the series and answers 403 and 404 for a meeting', async () => {
    expect(await meetings(child)).toEqual([]);
    const id = (await meetings(a))[0]!.id;
    expect((await get(`${BASE}/meeting?meetingId=${id}`, a)).status).toBe(200);
    expect((await get(`${BASE}/meeting?meetingId=${id}`, child)).status).toBe(403);
    expect((await get(`${BASE}/meeting?meetingId=999999`, a)).status).toBe(404);
    expect((await api(server.url, `${BASE}/meeting?meetingId=${id}`)).status).toBe(401);
  });

  it('takes homework, lets its owner download and delete it, and keeps it from other participants', async () => {
    const meeting = (await meetings(a)).find((m) => m.state === 'InProgress')!;
    const res = await upload(a, meeting.id, { name: 'läxa.pdf', type: 'application/pdf', data: PDF });
    expect(res.status).toBe(200);
    const messageId = ((await res.json()) as { value: number }).value;

    const mine = (
      (await get(`${BASE}/meetingmessages?meetingId=${meeting.id}`, a)).body as { value: MeetingMessage[] }
    ).value;
    expect(mine.find((x) => x.id === messageId)?.files).toEqual([
      { name: 'läxa.pdf', contentType: 'application/pdf', size: PDF.length },
    ]);
    const theirs = (
      (await get(`${BASE}/meetingmessages?meetingId=${meeting.id}`, b)).body as { value: MeetingMessage[] }
    ).value;
    expect(theirs.some((x) => x.id === messageId)).toBe(false);

    const fileUrl = `/portal/meetingmessagefile?meetingId=${meeting.id}&meetingMessageId=${messageId}&fileName=${encodeURIComponent('läxa.pdf')}`;
    const download = await fetch(`${server.url}${fileUrl}`, { headers: { Authorization: `Bearer ${a}` } });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await download.arrayBuffer()).equals(PDF)).toBe(true);
    expect(
      (await fetch(`${server.url}${fileUrl}`, { headers: { Authorization: `Bearer ${b}` } })).status,
    ).toBe(403);

    expect(
      (
        await api(server.url, `${BASE}/meetingmessage?meetingMessageId=${messageId}`, {
          method: 'DELETE',
          token: b,
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await api(server.url, `${BASE}/meetingmessage?meetingMessageId=${messageId}`, {
          method: 'DELETE',
          token: a,
        })
      ).status,
    ).toBe(200);
    expect(
      (await fetch(`${server.url}${fileUrl}`, { headers: { Authorization: `Bearer ${a}` } })).status,
    ).toBe(404);
  });

  it('refuses a file whose content is not an allowed type, whatever its name says', async () => {
    const meeting = (await meetings(a)).find((m) => m.state === 'InProgress')!;
    const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(64, 0)]);
    const res = await upload(a, meeting.id, { name: 'läxa.pdf', type: 'application/pdf', data: exe });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({
      error: 'unsupported_type',
      message: 'Filtypen är inte tillåten.',
    });
    // A zip named .docx that holds a program, and a PDF that runs script: refused by their structure.
    const type = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    const zipped = docx([{ name: 'payload.exe', data: exe }]);
    expect((await upload(a, meeting.id, { name: 'läxa.docx', type, data: zipped })).status).toBe(415);
    const script = Buffer.from(
      '%PDF-1.7\n1 0 obj << /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >> endobj\n',
    );
    expect(
      (await upload(a, meeting.id, { name: 'läxa.pdf', type: 'application/pdf', data: script })).status,
    ).toBe(415);
    expect((await upload(a, meeting.id, { name: 'läxa.docx', type, data: docx() })).status).toBe(200);
  });

  it('refuses a file over the size limit with 413', async () => {
    const meeting = (await meetings(a)).find((m) => m.state === 'InProgress')!;
    const big = Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024 + 1, 0x20)]);
    const res = await upload(a, meeting.id, { name: 'stor.pdf', type: 'application/pdf', data: big });
    expect(res.status).toBe(413);
  });

  it('takes a private message once per Idempotency-Key and limits it to 800 characters', async () => {
    const meeting = (await meetings(a)).find((m) => m.state === 'NotStarted')!;
    const key = randomUUID();
    const first = await upload(a, meeting.id, null, 'Hej gruppledare!', key);
    const again = await upload(a, meeting.id, null, 'Hej gruppledare!', key);
    expect(first.status).toBe(200);
    expect(await again.json()).toEqual(await first.json());
    const list = (
      (await get(`${BASE}/meetingmessages?meetingId=${meeting.id}`, a)).body as { value: MeetingMessage[] }
    ).value;
    expect(list.filter((m) => m.text === 'Hej gruppledare!')).toHaveLength(1);
    expect((await upload(a, meeting.id, null, 'x'.repeat(801))).status).toBe(400);
  });

  it('lists appendices of a visible meeting only', async () => {
    const meeting = (await meetings(a))[0]!;
    expect((await get(`${BASE}/appendices?MeetingId=${meeting.id}`, a)).body).toEqual({ value: [] });
    expect((await get(`${BASE}/appendices?MeetingId=${meeting.id}`, child)).status).toBe(403);
  });
});
