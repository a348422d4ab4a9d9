import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { MeetingRow } from '../../../worker/base/group-support.ts';
import { api } from '../../../harness/test-server.ts';
import { browserFetch, valueOf, waitForQuery } from '../helpers.ts';
import { createMeeting, signedInWorker, startMeeting, useGroupTestEnv } from './group-helpers.ts';
import { outcomeOf } from '../../../worker/base/result.ts';
import { HUB_EVENTS } from '../../../contract/hub.ts';

const env = useGroupTestEnv();
const PDF = '%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n';

async function participant(code = 'DEMOKOD-0001') {
  const fixture = await signedInWorker(env.server, code);
  env.fixtures.push(fixture);
  return fixture;
}

describe('meetings in Dexie', () => {
  it('replaces the cached list and follows a meeting the leader starts', async () => {
    const { worker, db } = await participant();
    // A meeting the server no longer returns (deleted while this device was away).
    await db.meetings.put({ id: 987654, subject: 'borttagen', fetchedAt: 0 } as MeetingRow);
    expect(outcomeOf(await worker.commands.loadMeetings())).toBe('ok');
    const cached = await db.meetings.toArray();
    expect(cached.length).toBeGreaterThanOrEqual(5);
    expect(cached.map((m) => m.id)).not.toContain(987654);

    // Created reaches the account channel: the list picks the new meeting up without a reload.
    const meeting = await createMeeting(env.server, env.leader, `Träff ${Date.now()}`);
    await waitForQuery(
      () => db.meetings.get(meeting.id),
      (row) => row?.state === 'NotStarted',
    );
    await startMeeting(env.server, env.leader, meeting.id);
    const started = await waitForQuery(
      () => db.meetings.get(meeting.id),
      (row) => row?.state === 'InProgress',
    );
    expect(started?.conversation?.id).toEqual(expect.any(Number));

    const removed = await api(env.server.url, `/portal/staff/meetings/${meeting.id}`, {
      token: env.leader,
      method: 'DELETE',
    });
    expect(removed.status).toBe(200);
    await waitForQuery(
      () => db.meetings.get(meeting.id),
      (row) => row === undefined,
    );
  });

  it('never writes a refetch that was under way back over a deleted meeting', async () => {
    // The network holds the answer to the meeting refetch an edit caused until the worker has had
    // the leader's deletion.
    let hold: { meetingId: number; requested: () => void; released: Promise<void> } | null = null;
    let heldAnswered = false;
    const fixture = await signedInWorker(env.server, 'DEMOKOD-0001', null, {
      fetch: async (input, init) => {
        const gate = hold;
        const url = new URL(input instanceof Request ? input.url : String(input));
        const response = await fetch(input, init);
        const id = url.searchParams.get('meetingId');
        if (gate && url.pathname.endsWith('/meeting') && id === String(gate.meetingId)) {
          gate.requested();
          await gate.released;
          heldAnswered = true;
        }
        return response;
      },
    });
    env.fixtures.push(fixture);
    const { worker, db } = fixture;
    expect(outcomeOf(await worker.commands.loadMeetings())).toBe('ok');
    const meeting = await createMeeting(env.server, env.leader, `Träff ${Date.now()}`);
    await waitForQuery(
      () => db.meetings.get(meeting.id),
      (row) => row?.state === 'NotStarted',
    );
    // The held answer's write of the meeting's row.
    let heldWritten = () => {};
    const written = new Promise<void>((resolve) => (heldWritten = resolve));
    const onWrite = (key: unknown) => {
      if (key === meeting.id && heldAnswered) heldWritten();
    };
    db.meetings.hook('creating', (key) => void onWrite(key));
    db.meetings.hook('updating', (_changes, key) => void onWrite(key));

    let release = () => {};
    const requested = new Promise<void>((resolve) => {
      const released = new Promise<void>((done) => (release = done));
      hold = { meetingId: meeting.id, requested: resolve, released };
    });
    const edited = await api(env.server.url, `/portal/staff/meetings/${meeting.id}`, {
      token: env.leader,
      method: 'PUT',
      body: { subject: 'Ändrad' },
    });
    expect(edited.status).toBe(200);
    await requested;
    hold = null;
    // Registered after the meetings module's own handler, so it runs once that one has.
    worker.on(HUB_EVENTS.meetingDeleted, () => release());
    const removed = await api(env.server.url, `/portal/staff/meetings/${meeting.id}`, {
      token: env.leader,
      method: 'DELETE',
    });
    expect(removed.status).toBe(200);
    await written;
    // The older copy went in before the deletion, never after it.
    await waitForQuery(
      () => db.meetings.get(meeting.id),
      (row) => row === undefined,
    );
  });

  it('loads a meeting with appendices and messages, and answers forbidden outside the series', async () => {
    const { worker, db } = await participant('DEMOKOD-0002');
    expect(outcomeOf(await worker.commands.loadMeetings())).toBe('ok');
    const open = (await db.meetings.toArray()).find((m) => m.state === 'NotStarted')!;
    expect(outcomeOf(await worker.commands.loadMeeting(open.id))).toBe('ok');
    // The leader adds an appendix (multipart, like the staff UI) so there is one to load.
    const form = new FormData();
    form.set('name', 'bilaga.pdf');
    form.set('file', new Blob([PDF], { type: 'application/pdf' }), 'bilaga.pdf');
    const added = await fetch(`${env.server.url}/portal/staff/meetings/${open.id}/appendices`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${env.leader}`, 'X-App-Variant': 'Gruppstod' },
      body: form,
    });
    expect(added.status).toBe(201);
    expect(outcomeOf(await worker.commands.loadMeeting(open.id))).toBe('ok');
    const appendices = await db.appendices.where('meetingId').equals(open.id).toArray();
    expect(appendices.map((x) => x.name)).toContain('bilaga.pdf');
    const appendix = appendices.find((x) => x.name === 'bilaga.pdf')!;
    expect(await valueOf(await worker.commands.downloadAppendix(open.id, appendix.id)).text()).toBe(PDF);
    expect(outcomeOf(await worker.commands.downloadAppendix(open.id, 99_999_999))).toBe('failed');
    expect(outcomeOf(await worker.commands.loadMeeting(99_999_999))).toBe('not_found');

    const child = await signedInWorker(env.server, 'demo', 'demo-losenord');
    env.fixtures.push(child);
    expect(outcomeOf(await child.worker.commands.loadMeetings())).toBe('ok');
    expect(await child.db.meetings.count()).toBe(0);
    expect(outcomeOf(await child.worker.commands.loadMeeting(open.id))).toBe('forbidden');
    expect(await child.db.meetings.get(open.id)).toBeUndefined();
  });

  it("loads an ended meeting's group chat from the server for a participant who signs in after it", async () => {
    const meeting = await createMeeting(env.server, env.leader, `Träff ${Date.now()}`);
    const chatId = (await startMeeting(env.server, env.leader, meeting.id)).conversation!.id;
    const ended = await api(env.server.url, `/portal/staff/meetings/${meeting.id}/end`, {
      token: env.leader,
      body: {},
    });
    expect(ended.status).toBe(200);
    // A device that never saw the chat: the meeting page is all it loads ('Se chatthistorik' reads
    // the conversation's state).
    const { worker, db } = await participant('DEMOKOD-0002');
    expect(await db.conversations.get(chatId)).toBeUndefined();
    expect(outcomeOf(await worker.commands.loadMeeting(meeting.id))).toBe('ok');
    expect((await db.conversations.get(chatId))?.state).toBe('Resolved');
  });

  it('uploads homework in a browser whose anti-forgery cookie changed since: its token proves it, sent once', async () => {
    const browser = browserFetch(env.server.url);
    const fixture = await signedInWorker(env.server, 'DEMOKOD-0003', null, { fetch: browser.fetchFn });
    env.fixtures.push(fixture);
    const { worker, db } = fixture;
    await worker.commands.loadMeetings();
    const open = (await db.meetings.toArray()).find((m) => m.state === 'NotStarted')!;
    const pdf = new Blob([PDF], { type: 'application/pdf' });
    expect(valueOf(await worker.commands.uploadHomework(open.id, pdf, 'först.pdf')).status).toBe('done');

    await browser.replaceAntiForgeryCookie();
    browser.sent.length = 0;
    const again = valueOf(await worker.commands.uploadHomework(open.id, pdf, 'sedan.pdf'));
    expect(again.status).toBe('done');
    // The old value in the header, and no refusal for it: the bearer token is the proof.
    expect(browser.sent.map((s) => `${s.method} ${new URL(s.url).pathname}`).slice(0, 2)).toEqual([
      'POST /portal/features/meetings/meetingsapplicationfeature-id/meetingmessage',
      'GET /portal/features/meetings/meetingsapplicationfeature-id/meetingmessages',
    ]);
    await worker.commands.loadMeeting(open.id);
    const messages = await db.meetingMessages.where('meetingId').equals(open.id).toArray();
    expect(messages.filter((m) => m.files.some((f) => f.name === 'sedan.pdf'))).toHaveLength(1);
  });

  it('uploads homework with progress and refuses a type the server does not take', async () => {
    const { worker, db } = await participant('DEMOKOD-0003');
    await worker.commands.loadMeetings();
    const open = (await db.meetings.toArray()).find((m) => m.state === 'NotStarted')!;
    const name = `uppgift-${Date.now()}.pdf`;
    const pdf = new Blob([PDF], { type: 'application/pdf' });
    const done = valueOf(await worker.commands.uploadHomework(open.id, pdf, name));
    expect(done).toMatchObject({ status: 'done', loaded: pdf.size, total: pdf.size });
    expect(await db.uploads.get(done.id)).toMatchObject({ status: 'done' });
    const messages = await db.meetingMessages.where('meetingId').equals(open.id).toArray();
    const sent = messages.find((m) => m.files.some((f) => f.name === name));
    expect(sent?.files[0]).toMatchObject({ contentType: 'application/pdf' });

    const file = valueOf(await worker.commands.downloadMeetingMessageFile(open.id, sent!.id, name));
    expect(await file.text()).toBe(PDF);

    const exe = new Blob([new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00])], {
      type: 'application/octet-stream',
    });
    const refused = await worker.commands.uploadHomework(open.id, exe, 'program.exe');
    expect(refused).toEqual({ ok: false, code: 'unsupported_type' });
    expect((await db.uploads.toArray()).find((u) => u.fileName === 'program.exe')).toMatchObject({
      status: 'failed',
      error: 'unsupported_type',
    });

    expect(outcomeOf(await worker.commands.deleteMeetingMessage(open.id, sent!.id))).toBe('ok');
    expect(await db.meetingMessages.get(sent!.id)).toBeUndefined();
  });

  it('sends a private message directly and clears the group tables on logout', async () => {
    const { worker, db } = await participant();
    await worker.commands.loadMeetings();
    const open = (await db.meetings.toArray()).find((m) => m.state === 'NotStarted')!;
    const text = `Fråga ${Date.now()}`;
    expect(await worker.commands.sendPrivateMessage(open.id, text)).toEqual({ ok: true, value: 'sent' });
    expect((await db.meetingMessages.toArray()).map((m) => m.text)).toContain(text);
    await worker.logout();
    expect(await db.meetings.count()).toBe(0);
    expect(await db.meetingMessages.count()).toBe(0);
  });
});

describe('a private message written offline', () => {
  it('is queued in the outbox and sent as multipart once the network is back', async () => {
    let offline = false;
    const fixture = await signedInWorker(env.server, 'DEMOKOD-0002', null, {
      fetch: (input, init) => (offline ? Promise.reject(new TypeError('offline')) : fetch(input, init)),
    });
    env.fixtures.push(fixture);
    const { worker, db } = fixture;
    await worker.commands.loadMeetings();
    const open = (await db.meetings.toArray()).find((m) => m.state === 'NotStarted')!;
    offline = true;
    const text = `Offline fråga ${Date.now()}`;
    expect(await worker.commands.sendPrivateMessage(open.id, text)).toEqual({ ok: true, value: 'queued' });
    offline = false;
    await worker.onOnline(true);
    const rows = (await db.outbox.toArray()).filter((r) => r.kind === 'meetingmessage');
    expect(rows.map((r) => r.status)).toEqual(['sent']);
    const onServer = await env.server.ctx.db
      .selectFrom('meeting_messages')
      .select('id')
      .where('meeting_id', '=', open.id)
      .where('text', '=', text)
      .execute();
    expect(onServer).toHaveLength(1);
  });
});
