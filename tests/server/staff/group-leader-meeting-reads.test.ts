import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { randomUUID } from 'node:crypto';
import { api, login, startTestServer, type TestServer } from '../../../harness/test-server.ts';
import type { Meeting, MeetingMessage } from '../../../contract/meetings.ts';
import type { ConversationMessageWire } from '../../../contract/conversations.ts';

let server: TestServer;
let leader: string;
let counsellor: string;
let participant: string;
let other: string;
let meeting: Meeting;
const MEETINGS = '/portal/features/meetings/meetingsapplicationfeature-id';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

beforeAll(async () => {
  server = await startTestServer({ variant: 'gruppstod' });
  leader = (await login(server.url, 'gruppledare', 'gruppledare-losenord', 'portal-staff')).access_token;
  counsellor = (await login(server.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token;
  participant = (await login(server.url, 'DEMOKOD-0001')).access_token;
  other = (await login(server.url, 'DEMOKOD-0002')).access_token;
  const created = await call('/portal/staff/meetings', leader, {
    seriesId: 1,
    subject: 'Läxträff',
    description: 'Ta med läxan',
    startDate: new Date().toISOString(),
    duration: 60,
  });
  meeting = created.body as unknown as Meeting;
});
afterAll(async () => server.dispose());

const call = (path: string, token?: string, body?: unknown) =>
  api(server.url, path, { token, body, variant: 'Gruppstod' });

function uploadHomework(token: string, text: string, file: { name: string; data: Buffer }) {
  const form = new FormData();
  form.set('Subject', 'Uppgift');
  form.set('Text', text);
  form.set('MessageType', '1');
  form.set('MeetingRuid', String(meeting.id));
  form.set('DocumentName', file.name);
  form.set('DocumentContentType', 'application/pdf');
  form.set('DocumentContent', new Blob([new Uint8Array(file.data)], { type: 'application/pdf' }), file.name);
  return fetch(`${server.url}${MEETINGS}/meetingmessage`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'X-App-Variant': 'Gruppstod' },
    body: form,
  });
}

const download = (path: string, token?: string) =>
  fetch(`${server.url}${path}`, {
    headers: { 'X-App-Variant': 'Gruppstod', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
  });

describe('the group chat as the leader reads it', () => {
  it('is empty before the start and carries both sides’ messages after', async () => {
    const path = `/portal/staff/meetings/${meeting.id}/messages`;
    const before = await call(path, leader);
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ value: [], conversationId: null });

    const started = await call(`/portal/staff/meetings/${meeting.id}/start`, leader, {});
    const conversationId = (started.body as unknown as Meeting).conversation!.id;
    await call(`/portal/staff/meetings/${meeting.id}/messages`, leader, { content: 'Välkomna!' });
    const sent = await call('/portal/conversationmessage', participant, {
      content: 'Hej!',
      conversation: conversationId,
      loggedDate: new Date().toISOString(),
    });
    expect(sent.status).toBe(201);

    const after = await call(path, leader);
    const body = after.body as { value: ConversationMessageWire[]; conversationId: number };
    expect(body.conversationId).toBe(conversationId);
    expect(body.value.map((m) => [m.authorKind, m.message])).toEqual([
      ['agent', 'Välkomna!'],
      ['contact', 'Hej!'],
    ]);
    expect(body.value[1]?.contactName).toBe('Alex');
  });

  it('is refused to everyone but the series’ leader', async () => {
    const path = `/portal/staff/meetings/${meeting.id}/messages`;
    expect((await call(path)).status).toBe(401);
    expect((await call(path, participant)).status).toBe(403);
    expect((await call(path, counsellor)).status).toBe(403);
    expect((await call('/portal/staff/meetings/999999/messages', leader)).status).toBe(404);
  });
});

describe('homework and private messages', () => {
  it('lists every participant’s message with its sender and lets the leader download the files', async () => {
    expect((await uploadHomework(participant, 'Min läxa', { name: 'läxa.pdf', data: PDF })).status).toBe(200);
    expect((await uploadHomework(other, '', { name: 'robin.pdf', data: PDF })).status).toBe(200);

    const res = await call(`/portal/staff/meetings/${meeting.id}/private-messages`, leader);
    const list = (res.body as { value: Array<MeetingMessage & { senderName: string }> }).value;
    expect(list.map((m) => [m.senderName, m.text, m.files.map((f) => f.name)])).toEqual([
      ['Alex', 'Min läxa', ['läxa.pdf']],
      ['Robin', '', ['robin.pdf']],
    ]);

    const first = list[0]!;
    const path = `/portal/staff/meetings/${meeting.id}/files/${first.id}/${encodeURIComponent('läxa.pdf')}`;
    const file = await download(path, leader);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; /);
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await file.arrayBuffer()).equals(PDF)).toBe(true);

    expect((await download(path)).status).toBe(401);
    expect((await download(path, participant)).status).toBe(403);
    expect((await download(path, counsellor)).status).toBe(403);
    expect(
      (await download(`/portal/staff/meetings/${meeting.id}/files/${first.id}/annan.pdf`, leader)).status,
    ).toBe(404);
    // A message of one meeting cannot be read through another meeting's path.
    expect((await download(`/portal/staff/meetings/1/files/${first.id}/läxa.pdf`, leader)).status).toBe(404);
  });

  it('lists the appendices the leader uploaded', async () => {
    const form = new FormData();
    form.set('name', 'bilaga.pdf');
    form.set('file', new Blob([new Uint8Array(PDF)], { type: 'application/pdf' }), 'bilaga.pdf');
    const up = await fetch(`${server.url}/portal/staff/meetings/${meeting.id}/appendices`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${leader}`, 'X-App-Variant': 'Gruppstod' },
      body: form,
    });
    expect(up.status).toBe(201);
    const res = await call(`/portal/staff/meetings/${meeting.id}/appendices`, leader);
    expect((res.body as { value: Array<{ name: string }> }).value.map((a) => a.name)).toEqual(['bilaga.pdf']);
    expect((await call(`/portal/staff/meetings/${meeting.id}/appendices`)).status).toBe(401);
    expect((await call(`/portal/staff/meetings/${meeting.id}/appendices`, participant)).status).toBe(403);
    expect((await call(`/portal/staff/meetings/${meeting.id}/appendices`, counsellor)).status).toBe(403);
  });

  it('answers a retry with the meeting or appendix stored before its announcement failed, instead of a second one', async () => {
    const subject = `Efteråt ${randomUUID()}`;
    const appendixName = `bilaga-${randomUUID().slice(0, 8)}.pdf`;
    const startDate = new Date().toISOString();
    const requests = [
      {
        path: '/portal/staff/meetings',
        body: () => JSON.stringify({ seriesId: 1, subject, startDate, duration: 60 }),
        json: true,
        stored: async () =>
          (
            await server.ctx.db.selectFrom('meetings').select('id').where('subject', '=', subject).execute()
          ).map((r) => r.id),
      },
      {
        path: `/portal/staff/meetings/${meeting.id}/appendices`,
        body: () => {
          const form = new FormData();
          form.set('name', appendixName);
          form.set('file', new Blob([new Uint8Array(PDF)], { type: 'application/pdf' }), appendixName);
          return form;
        },
        json: false,
        stored: async () =>
          (
            await server.ctx.db
              .selectFrom('appendices')
              .select('id')
              .where('name', '=', appendixName)
              .execute()
          ).map((r) => r.id),
      },
    ];
    for (const { path, body, json, stored } of requests) {
      const key = randomUUID();
      const send = () =>
        fetch(`${server.url}${path}`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${leader}`,
            'X-App-Variant': 'Gruppstod',
            'Idempotency-Key': key,
            ...(json ? { 'Content-Type': 'application/json' } : {}),
          },
          body: body(),
        });
      // The announcement after the insert fails once (the hub's backplane restarting).
      const publish = vi
        .spyOn(server.ctx.hub, 'publishToEntity')
        .mockRejectedValueOnce(new Error('backplane down'));
      let first: Response;
      try {
        first = await send();
      } finally {
        publish.mockRestore();
      }
      expect(first.status, path).toBe(500);
      const again = await send();
      expect(again.status, path).toBe(201);
      expect(again.headers.get('idempotent-replayed'), path).toBe('true');
      const answer = (await again.json()) as { id?: number; value?: number };
      expect(await stored(), path).toEqual([answer.id ?? answer.value]);
    }
  });
});
