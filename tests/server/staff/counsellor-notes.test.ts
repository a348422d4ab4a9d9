import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNSELLOR_NOTE_MAX_LENGTH } from '../../../contract/limits.ts';
import { registerChild, startTarget } from '../../../harness/attack.ts';
import { HUB_EVENTS, HUB_PATH, entityKey } from '../../../contract/hub.ts';
import { RawClient, waitFor } from '../hub/helpers.ts';
import {
  api,
  createStaffAccount,
  login,
  postWithKey,
  type TestServer,
} from '../../../harness/test-server.ts';

/**
 * Notes for the next counsellor: kept by the counsellor who holds a chat or mail, read by whoever
 * holds the same child's next one, and by nobody else; never in the child's answers; erased with
 * the child's account.
 */
const CONVERSATIONS = '/portal/features/conversations/conversationsapplication-id';
let server: TestServer;
let kim: string;
let colleague: string;
let leader: string;

beforeAll(async () => {
  server = await startTarget();
  kim = (await login(server.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token;
  await createStaffAccount(server, 'kollega-anteckning', 'kollegans-losenord-9', ['counsellor'], 'Kollega');
  colleague = (await login(server.url, 'kollega-anteckning', 'kollegans-losenord-9', 'portal-staff'))
    .access_token;
  await createStaffAccount(server, 'ledare-anteckning', 'ledarens-losenord-9', ['group_leader'], 'Ledare');
  leader = (await login(server.url, 'ledare-anteckning', 'ledarens-losenord-9', 'portal-staff')).access_token;
});
afterAll(async () => server?.dispose());

type Child = Awaited<ReturnType<typeof registerChild>>;

/** The child writes a mail and `token`'s counsellor accepts it: theirs to note on. */
async function acceptedMail(child: Child, token: string): Promise<number> {
  const mail = await postWithKey(server.url, '/portal/mail', {
    token: child.token,
    body: { subject: 'Hej', text: 'Jag vill berätta något' },
    key: randomUUID(),
  });
  expect(mail.status).toBe(200);
  const id = Number(((await mail.json()) as { id: number }).id);
  const accepted = await api(server.url, `/portal/staff/conversations/${id}/accept`, { token, body: {} });
  expect(accepted.status).toBe(200);
  return id;
}

const notesOn = (id: number, token?: string) =>
  api(server.url, `/portal/staff/conversations/${id}/notes`, token ? { token } : {});
const writeNote = (id: number, token: string, text: string, key = randomUUID()) =>
  postWithKey(server.url, `/portal/staff/conversations/${id}/notes`, { token, body: { content: text }, key });

describe('a note for the next counsellor', () => {
  it('reaches whoever holds the same child’s next conversation, newest first, with who and when', async () => {
    const child = await registerChild(server);
    const first = await acceptedMail(child, kim);
    const written = await writeNote(first, kim, '  Pratade om skolan. Vill inte att föräldrar kontaktas.  ');
    expect(written.status).toBe(201);
    expect(await written.json()).toMatchObject({
      text: 'Pratade om skolan. Vill inte att föräldrar kontaktas.',
      conversationId: first,
      authorName: expect.any(String),
      createdDate: expect.any(String),
    });
    expect((await writeNote(first, kim, 'Andra anteckningen')).status).toBe(201);

    const next = await acceptedMail(child, colleague);
    const { status, body } = await notesOn(next, colleague);
    expect(status).toBe(200);
    const notes = (body as { value: Array<{ text: string; conversationId: number }> }).value;
    expect(notes.map((n) => n.text)).toEqual([
      'Andra anteckningen',
      'Pratade om skolan. Vill inte att föräldrar kontaktas.',
    ]);
    expect(notes.every((n) => n.conversationId === first)).toBe(true);
  });

  it('is another child’s business: nothing of one child’s notes shows on another’s conversation', async () => {
    const one = await registerChild(server);
    const other = await registerChild(server);
    await writeNote(await acceptedMail(one, kim), kim, 'Bara om det första barnet');
    const { body } = await notesOn(await acceptedMail(other, kim), kim);
    expect((body as { value: unknown[] }).value).toEqual([]);
  });

  it('is read and written only by the counsellor who holds the conversation', async () => {
    const child = await registerChild(server);
    const id = await acceptedMail(child, kim);
    expect((await writeNote(id, kim, 'Hemlig för andra')).status).toBe(201);
    for (const token of [colleague, leader, child.token]) {
      expect((await notesOn(id, token)).status).toBe(403);
      expect((await writeNote(id, token, 'Intrång')).status).toBe(403);
    }
    expect((await notesOn(id)).status).toBe(401);
    expect((await notesOn(999_999, kim)).status).toBe(404);
    const { body } = await notesOn(id, kim);
    expect((body as { value: Array<{ text: string }> }).value.map((n) => n.text)).toEqual([
      'Hemlig för andra',
    ]);
  });

  it('is read, not written, by any counsellor on the child’s mail waiting in the queue', async () => {
    const child = await registerChild(server);
    await writeNote(await acceptedMail(child, kim), kim, 'Läses innan svaret');
    const waiting = await postWithKey(server.url, '/portal/mail', {
      token: child.token,
      body: { subject: 'Igen', text: 'Jag skriver igen' },
      key: randomUUID(),
    });
    const id = Number(((await waiting.json()) as { id: number }).id);
    const { status, body } = await notesOn(id, colleague);
    expect(status).toBe(200);
    expect((body as { value: Array<{ text: string }> }).value.map((n) => n.text)).toEqual([
      'Läses innan svaret',
    ]);
    // Kept only by whoever holds it: answered or accepted first.
    expect((await writeNote(id, colleague, 'Innan svaret')).status).toBe(403);
    expect((await notesOn(id, leader)).status).toBe(403);
  });

  it('refuses an empty, a blank and a too long note, and keeps none of them', async () => {
    const child = await registerChild(server);
    const id = await acceptedMail(child, kim);
    for (const text of ['', '   ', 'x'.repeat(COUNSELLOR_NOTE_MAX_LENGTH + 1)]) {
      const res = await writeNote(id, kim, text);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe('validation');
    }
    expect((await writeNote(id, kim, 'x'.repeat(COUNSELLOR_NOTE_MAX_LENGTH))).status).toBe(201);
    expect(((await notesOn(id, kim)).body as { value: unknown[] }).value).toHaveLength(1);
  });

  it('is written once when the console sends it again with the same key, also at the same time', async () => {
    const child = await registerChild(server);
    const id = await acceptedMail(child, kim);
    const key = randomUUID();
    const answers = await Promise.all([1, 2, 3].map(() => writeNote(id, kim, 'En gång', key)));
    expect(answers.map((a) => a.status).filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    expect(((await notesOn(id, kim)).body as { value: unknown[] }).value).toHaveLength(1);
  });

  it('never reaches the child: none of the child’s answers about the conversation holds it', async () => {
    const child = await registerChild(server);
    const id = await acceptedMail(child, kim);
    const secret = `Anteckning-${randomUUID()}`;
    expect((await writeNote(id, kim, secret)).status).toBe(201);
    const answers = await Promise.all(
      [
        `${CONVERSATIONS}/conversations`,
        `${CONVERSATIONS}/conversation?conversation=${id}`,
        `${CONVERSATIONS}/messages?conversation=${id}`,
        '/portal/api/notifications',
        '/portal/accounts',
      ].map((path) => api(server.url, path, { token: child.token })),
    );
    for (const answer of answers) expect(JSON.stringify(answer.body)).not.toContain(secret);
  });

  it('never reaches the child’s hub: no frame of the conversation or the account carries it', async () => {
    const child = await registerChild(server);
    const id = await acceptedMail(child, kim);
    const negotiated = await fetch(`${server.url}${HUB_PATH}/negotiate?negotiateVersion=1`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${child.token}` },
    });
    const { connectionToken } = (await negotiated.json()) as { connectionToken: string };
    const hub = new RawClient(
      `${server.url.replace('http', 'ws')}${HUB_PATH}?id=${connectionToken}&access_token=${child.token}`,
    );
    try {
      expect(await hub.opened()).toBe(101);
      await hub.handshake();
      hub.send({
        type: 1,
        invocationId: '1',
        target: 'SubscribeToEntity',
        arguments: [entityKey('Conversation', id)],
      });
      await waitFor(() => hub.messages().some((m) => m.type === 3 && m.invocationId === '1'));

      // The note, then what the child does hear: the counsellor's answer.
      const secret = `Anteckning-${randomUUID()}`;
      expect((await writeNote(id, kim, secret)).status).toBe(201);
      const answer = `Svar-${randomUUID()}`;
      const staff = `/portal/staff/conversations/${id}`;
      expect(
        (await api(server.url, `${staff}/messages`, { token: kim, body: { content: answer } })).status,
      ).toBe(201);
      // Frames go out in the order of the writes: once the answer is heard, so is anything the note sent.
      await waitFor(() =>
        hub.records.some((r) => r.includes(HUB_EVENTS.messageCreated) && r.includes(answer)),
      );
      expect(hub.records.some((r) => r.includes(HUB_EVENTS.conversationUpdated))).toBe(true);
      for (const record of hub.records) expect(record).not.toContain(secret);
    } finally {
      hub.close();
    }
  });

  it('is erased with the child’s account', async () => {
    const child = await registerChild(server);
    const id = await acceptedMail(child, kim);
    expect((await writeNote(id, kim, 'Raderas med kontot')).status).toBe(201);
    const kept = () =>
      server.ctx.db
        .selectFrom('counsellor_notes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('conversation_id', '=', id)
        .executeTakeFirstOrThrow();
    expect(Number((await kept()).n)).toBe(1);
    expect((await api(server.url, '/portal/deleteContact', { token: child.token, body: {} })).status).toBe(
      200,
    );
    expect(Number((await kept()).n)).toBe(0);
  });
});
