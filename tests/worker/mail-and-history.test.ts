import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { Conversation, ConversationMessageWire } from '../../contract/conversations.ts';
import { api, login } from '../../harness/test-server.ts';
import { MAIL_DEVICE, useCounsellorTestEnv } from './child-helpers.ts';
import { CONV, signedInWorker } from './group/group-helpers.ts';
import { valueOf, waitForQuery } from './helpers.ts';
import { outcomeOf } from '../../worker/base/result.ts';

const env = useCounsellorTestEnv();
const { fixtures } = env;
const PASSWORD = 'blå-ballong-73';
const DEVICE = MAIL_DEVICE;

/** A fresh child (born 2011, a girl) signed in through the worker core. */
async function child(username: string, options: { fetch?: typeof fetch } = {}) {
  const registered = await api(env.server.url, '/portal/api/accounts/registercontact', {
    body: { username, password: PASSWORD, properties: { birthYear: '2011', gender: 'female' } },
  });
  expect(registered.status).toBe(201);
  const fixture = await signedInWorker(env.server, username, PASSWORD, options);
  fixtures.push(fixture);
  const token = (await login(env.server.url, username, PASSWORD)).access_token;
  return { ...fixture, token };
}

const staff = (path: string, body?: unknown) =>
  api(env.server.url, `/portal/staff${path}`, { token: env.counsellor, ...(body ? { body } : {}) });

const staffMessages = async (id: number) =>
  ((await staff(`/conversations/${id}/messages`)).body as { value: ConversationMessageWire[] }).value;

const serverConversations = async (token: string) =>
  (
    (await api(env.server.url, `${CONV}/conversations?take=9999&skip=0&selection=mine`, { token })).body as {
      value: Conversation[];
    }
  ).value;

/**
 * A fetch that keeps back every conversation-list answer received while `holding`, until `release`:
 * an answer read on the server before a change, arriving after one read after it.
 */
function heldListAnswers() {
  const held: Array<() => void> = [];
  let heldOne: () => void = () => undefined;
  const lists = {
    holding: false,
    oneHeld: new Promise<void>((resolve) => (heldOne = resolve)),
    release: () => held.splice(0).forEach((release) => release()),
    fetch: (async (input, init) => {
      const response = await fetch(input, init);
      const url = input instanceof Request ? input.url : String(input);
      if (lists.holding && url.includes('/conversations?')) {
        await new Promise<void>((resolve) => {
          held.push(resolve);
          heldOne();
        });
      }
      return response;
    }) as typeof fetch,
  };
  return lists;
}

describe('mail', () => {
  it('sends a mail with the conversation properties, follows the answer, marks it read and replies', async () => {
    const { worker, db, token } = await child('mejl-barn');
    const result = valueOf(await worker.commands.sendMail('Skolan', 'Jag är orolig för provet.', DEVICE));
    expect(result.status).toBe('sent');
    const id = result.status === 'sent' ? result.conversationId : -1;
    expect(await db.conversations.get(id)).toMatchObject({ systemType: 'mail', subject: 'Skolan' });
    expect((await db.chatMessages.where('conversation').equals(id).toArray()).map((m) => m.message)).toEqual([
      'Jag är orolig för provet.',
    ]);

    const queue = (await staff('/queue')).body as {
      value: Array<Conversation & { properties: Record<string, string> }>;
    };
    const queued = queue.value.find((c) => c.id === id);
    expect(queued?.properties.gender).toBe('female');
    expect(Number(queued?.properties.age)).toBe(new Date().getFullYear() - 2011);
    expect(queued?.properties.device).toBe('Desktop, Linux, Linux x86_64, Chrome, 120.0.0.0, PWA: Nej');

    // The answer notifies the child: the list is refreshed and the thread shows as unread.
    expect((await staff(`/conversations/${id}/messages`, { content: 'Hej! Berätta mer.' })).status).toBe(201);
    const unread = await waitForQuery(
      () => db.conversations.get(id),
      (c) => c?.lastAgentMessageDate != null,
    );
    expect(unread?.readDate).toBeNull();

    expect(outcomeOf(await worker.commands.openConversation(id))).toBe('ok');
    const read = await db.conversations.get(id);
    expect(read?.readDate).not.toBeNull();
    expect(Date.parse(read!.readDate!)).toBeGreaterThanOrEqual(Date.parse(read!.lastAgentMessageDate!));
    expect(
      (await db.chatMessages.where('conversation').equals(id).sortBy('loggedDate')).map((m) => m.message),
    ).toEqual(['Jag är orolig för provet.', 'Hej! Berätta mer.']);

    // While the thread is open a new answer arrives live (the conversation's hub events).
    await staff(`/conversations/${id}/messages`, { content: 'Finns du kvar?' });
    await waitForQuery(
      () => db.chatMessages.where('conversation').equals(id).toArray(),
      (rows) => rows.some((m) => m.message === 'Finns du kvar?'),
    );

    const clientId = valueOf(await worker.commands.sendChatMessage(id, 'Ja, det är matteprovet.'));
    await waitForQuery(
      () => db.chatMessages.where('clientId').equals(clientId).first(),
      (row) => row?.sendStatus === 'sent',
    );
    expect((await staffMessages(id)).map((m) => m.message)).toContain('Ja, det är matteprovet.');
    expect((await serverConversations(token)).filter((c) => c.systemType === 'mail')).toHaveLength(1);
    await worker.commands.closeConversation(id);
  });

  it('keeps a mail whose answer was lost and sends it once when retried', async () => {
    let dropFirstAnswer = true;
    const flaky: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (dropFirstAnswer && String(input).endsWith('/portal/mail')) {
        dropFirstAnswer = false;
        throw new TypeError('Failed to fetch');
      }
      return response;
    };
    const { worker, db, token } = await child('mejl-tappat', { fetch: flaky });
    const result = valueOf(await worker.commands.sendMail('Hemma', 'Det är bråkigt hemma.', DEVICE));
    expect(result.status).toBe('queued');
    const clientId = result.status === 'queued' ? result.clientId : '';
    expect(await db.outbox.get(clientId)).toMatchObject({ kind: 'mail', status: 'failed' });

    await worker.flushOutbox();
    expect(await db.outbox.get(clientId)).toMatchObject({ status: 'sent' });
    const mails = (await serverConversations(token)).filter((c) => c.systemType === 'mail');
    expect(mails.map((c) => c.subject)).toEqual(['Hemma']);
    expect(outcomeOf(await worker.commands.loadConversations())).toBe('ok');
    expect((await db.conversations.toArray()).map((c) => c.id)).toEqual([mails[0]!.id]);
  });
});

describe('chat history', () => {
  it('stars and unstars a finished chat, then deletes it from the account', async () => {
    const { worker, db, token } = await child('historik-barn');
    const chat = (
      await api(env.server.url, '/portal/chat', { token, body: { subject: 'Chatt', text: 'Hej' } })
    ).body as unknown as Conversation;
    expect((await staff(`/conversations/${chat.id}/accept`, {})).status).toBe(200);
    const hello = await staff(`/conversations/${chat.id}/messages`, { content: 'Hej, jag heter Kim.' });
    expect(hello.status).toBe(201);
    const resolved = await staff(`/conversations/${chat.id}/resolve`, {});
    expect([resolved.status, resolved.body]).toEqual([200, { success: true }]);
    const onServer = async () => (await serverConversations(token)).find((c) => c.id === chat.id)?.state;
    expect(await onServer()).toBe('Resolved');

    expect(outcomeOf(await worker.commands.loadConversations())).toBe('ok');
    expect(await db.conversations.get(chat.id)).toMatchObject({ systemType: 'chat', state: 'Resolved' });
    const rating = async () => (await serverConversations(token)).find((c) => c.id === chat.id)?.rating;

    expect(outcomeOf(await worker.commands.setFavourite(chat.id, true))).toBe('ok');
    expect((await db.conversations.get(chat.id))?.rating).toBe(5);
    expect(await rating()).toBe(5);
    expect(outcomeOf(await worker.commands.setFavourite(chat.id, false))).toBe('ok');
    expect((await db.conversations.get(chat.id))?.rating).toBe(1);
    expect(await rating()).toBe(1);

    expect(outcomeOf(await worker.commands.openConversation(chat.id))).toBe('ok');
    expect(await db.chatMessages.where('conversation').equals(chat.id).count()).toBe(2);
    expect(outcomeOf(await worker.commands.deleteConversation(chat.id))).toBe('ok');
    expect(await db.conversations.get(chat.id)).toBeUndefined();
    expect(await db.chatMessages.where('conversation').equals(chat.id).count()).toBe(0);
    expect((await serverConversations(token)).map((c) => c.id)).not.toContain(chat.id);
    const messages = await api(
      env.server.url,
      `${CONV}/messages?take=9999&conversation=${chat.id}&selection=mine`,
      {
        token,
      },
    );
    expect(messages.status).toBe(403);
    expect((await staffMessages(chat.id)).every((m) => m.message === '')).toBe(true);
  });

  it('keeps a finished chat finished when an answer read before the end arrives after a newer one', async () => {
    const lists = heldListAnswers();
    const { worker, db, token } = await child('gammalt-svar', { fetch: lists.fetch });
    const chat = (
      await api(env.server.url, '/portal/chat', { token, body: { subject: 'Chatt', text: 'Hej' } })
    ).body as unknown as Conversation;
    expect((await staff(`/conversations/${chat.id}/accept`, {})).status).toBe(200);

    lists.holding = true;
    const older = worker.commands.loadConversations();
    await lists.oneHeld; // read on the server while the chat was still going on
    expect((await staff(`/conversations/${chat.id}/resolve`, {})).status).toBe(200);
    lists.holding = false;
    expect(outcomeOf(await worker.commands.loadConversations())).toBe('ok');
    expect(await db.conversations.get(chat.id)).toMatchObject({ state: 'Resolved' });

    lists.release();
    expect(outcomeOf(await older)).toBe('ok');
    expect(await db.conversations.get(chat.id)).toMatchObject({ state: 'Resolved' });
  });

  it('keeps a chat started while an older list was on its way', async () => {
    const lists = heldListAnswers();
    const { worker, db } = await child('ny-chatt-under-lista', { fetch: lists.fetch });
    lists.holding = true;
    const older = worker.commands.loadConversations();
    await lists.oneHeld; // the list, read before the chat existed
    lists.holding = false;
    const started = await worker.commands.startChat(null, DEVICE);
    expect(started.ok).toBe(true);
    const id = started.ok ? started.value : -1;
    expect(await db.conversations.get(id)).toBeDefined();
    lists.release();
    expect(outcomeOf(await older)).toBe('ok');
    expect(await db.conversations.get(id)).toBeDefined();
  });

  it('drops a conversation deleted on another device at the next list load, and refuses a rating it cannot save', async () => {
    const { worker, db, token } = await child('historik-tva');
    const chat = (await api(env.server.url, '/portal/chat', { token, body: { subject: 'Chatt', text: '' } }))
      .body as unknown as Conversation;
    await api(env.server.url, `${CONV}/cancel`, { token, method: 'PUT', body: { conversation: chat.id } });
    expect(outcomeOf(await worker.commands.loadConversations('resolved'))).toBe('ok');
    expect(await db.conversations.get(chat.id)).toMatchObject({ state: 'Cancelled' });

    await api(env.server.url, `${CONV}/delete`, { token, method: 'PUT', body: { conversation: chat.id } });
    expect(outcomeOf(await worker.commands.setFavourite(chat.id, true))).toBe('failed');
    expect((await db.conversations.get(chat.id))?.rating).toBeNull();
    expect(outcomeOf(await worker.commands.loadConversations())).toBe('ok');
    expect(await db.conversations.get(chat.id)).toBeUndefined();
  });

  it('fetches the thread list again when the logo clears its cache (SPEC §2)', async () => {
    const { worker, db, token } = await child('logga-rensar');
    const chat = (await api(env.server.url, '/portal/chat', { token, body: { subject: 'Chatt', text: '' } }))
      .body as unknown as Conversation;
    await api(env.server.url, `${CONV}/cancel`, { token, method: 'PUT', body: { conversation: chat.id } });
    expect(outcomeOf(await worker.commands.loadConversations())).toBe('ok');
    expect(await db.conversations.get(chat.id)).toBeDefined();

    // Gone on the server (another device deleted it): the cleared list no longer shows it.
    await api(env.server.url, `${CONV}/delete`, { token, method: 'PUT', body: { conversation: chat.id } });
    expect(await db.conversations.get(chat.id)).toBeDefined();
    expect(outcomeOf(await worker.commands.clearThreadCache())).toBe('ok');
    expect(await db.conversations.get(chat.id)).toBeUndefined();
  });

  it('keeps the star the child just set when a list answer from before the click arrives after it', async () => {
    // A slow network: the list's answer has left the server, but reaches the worker only on release.
    let holdList = false;
    let answered = () => {};
    let release = () => {};
    const slowFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const url = String(input instanceof Request ? input.url : input);
      if (!holdList || !url.includes('/conversations?')) return response;
      holdList = false;
      answered();
      await new Promise<void>((resolve) => (release = resolve));
      return response;
    };
    const { worker, db, token } = await child('historik-tre', { fetch: slowFetch });
    const chat = (await api(env.server.url, '/portal/chat', { token, body: { subject: 'Chatt', text: '' } }))
      .body as unknown as Conversation;
    await api(env.server.url, `${CONV}/cancel`, { token, method: 'PUT', body: { conversation: chat.id } });
    expect(outcomeOf(await worker.commands.loadConversations())).toBe('ok');

    holdList = true;
    const listAnswered = new Promise<void>((resolve) => (answered = resolve));
    const listing = worker.commands.loadConversations();
    await listAnswered;
    expect(outcomeOf(await worker.commands.setFavourite(chat.id, true))).toBe('ok');
    release();
    expect(outcomeOf(await listing)).toBe('ok');
    expect((await db.conversations.get(chat.id))?.rating).toBe(5);

    // A list asked after the rating was saved is the server's word again.
    await api(env.server.url, `${CONV}/rate`, {
      token,
      method: 'PUT',
      body: { conversation: chat.id, rating: 1 },
    });
    expect(outcomeOf(await worker.commands.loadConversations())).toBe('ok');
    expect((await db.conversations.get(chat.id))?.rating).toBe(1);
  });

  it('keeps the star the child set while the opened chat was being marked read', async () => {
    // The conversation read again after the Read activity has left the server with the old rating,
    // and reaches the worker only after the star was set.
    let holdAfterRead = false;
    let answered = () => {};
    let release = () => {};
    const slowFetch: typeof fetch = async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      const response = await fetch(input, init);
      if (url.endsWith('/activity')) holdAfterRead = true;
      else if (holdAfterRead && url.includes('/conversations?')) {
        holdAfterRead = false;
        answered();
        await new Promise<void>((resolve) => (release = resolve));
      }
      return response;
    };
    const { worker, db, token } = await child('historik-fyra', { fetch: slowFetch });
    const chat = (await api(env.server.url, '/portal/chat', { token, body: { subject: 'Chatt', text: '' } }))
      .body as unknown as Conversation;
    await api(env.server.url, `${CONV}/cancel`, { token, method: 'PUT', body: { conversation: chat.id } });
    expect(outcomeOf(await worker.commands.loadConversations())).toBe('ok');

    const readAnswered = new Promise<void>((resolve) => (answered = resolve));
    const opening = worker.commands.openConversation(chat.id);
    await readAnswered;
    expect(outcomeOf(await worker.commands.setFavourite(chat.id, true))).toBe('ok');
    release();
    expect(outcomeOf(await opening)).toBe('ok');
    expect((await db.conversations.get(chat.id))?.rating).toBe(5);
    expect((await serverConversations(token)).find((c) => c.id === chat.id)?.rating).toBe(5);
  });
});
