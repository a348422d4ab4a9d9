import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { ConversationMessageWire } from '../../contract/conversations.ts';
import { chatEntries } from '../../src/chat-window/chat-messages.ts';
import type { Clock } from '../../worker/clock.ts';
import { outcomeOf } from '../../worker/base/result.ts';
import { api } from '../../harness/test-server.ts';
import { MAIL_DEVICE, useCounsellorTestEnv } from './child-helpers.ts';
import { valueOf, waitForQuery } from './helpers.ts';
import { createWorker } from './worker-fixture.ts';

const env = useCounsellorTestEnv();
const { fixtures } = env;
const PASSWORD = 'blå-ballong-73';
const DEVICE = MAIL_DEVICE;

/** A device whose clock is a minute behind the server's. */
const lateClock: Clock = {
  now: () => Date.now() - 60_000,
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

const staffMessages = async (id: number) =>
  (
    (await api(env.server.url, `/portal/staff/conversations/${id}/messages`, { token: env.counsellor }))
      .body as { value: ConversationMessageWire[] }
  ).value;

describe('the order of a chat', () => {
  it('places a message written offline by the server time once sent, and keeps it last until then', async () => {
    const username = 'ordning-barn';
    const registered = await api(env.server.url, '/portal/api/accounts/registercontact', {
      body: { username, password: PASSWORD, properties: { birthYear: '2011', gender: 'female' } },
    });
    expect(registered.status).toBe(201);
    // The network is cut for sending messages while `offline`.
    let offline = false;
    const fixture = await createWorker(env.server, {
      clock: lateClock,
      fetch: (input, init) =>
        offline && init?.method === 'POST' && String(input).endsWith('/conversationmessage')
          ? Promise.reject(new TypeError('Failed to fetch'))
          : fetch(input, init),
    });
    fixtures.push(fixture);
    const { worker, db } = fixture;
    await worker.start(true);
    expect((await worker.login(username, PASSWORD)).ok).toBe(true);
    const myContactId = (await db.profile.get('current'))?.contactId;

    const mail = valueOf(await worker.commands.sendMail('Skolan', 'Jag är orolig.', DEVICE));
    const id = mail.status === 'sent' ? mail.conversationId : -1;
    expect(outcomeOf(await worker.commands.openConversation(id))).toBe('ok');
    const order = async () =>
      chatEntries(await db.chatMessages.where('conversation').equals(id).toArray(), myContactId).map(
        (e) => e.content,
      );

    offline = true;
    const clientId = valueOf(await worker.commands.sendChatMessage(id, 'Skrivet utan nät'));
    await waitForQuery(
      () => db.outbox.get(clientId),
      (row) => row?.status === 'failed',
    );
    const reply = await api(env.server.url, `/portal/staff/conversations/${id}/messages`, {
      token: env.counsellor,
      body: { content: 'Svar från kuratorn' },
    });
    expect(reply.status).toBe(201);
    expect(outcomeOf(await worker.commands.openConversation(id))).toBe('ok');

    // Unsent: last, although the device's clock dates it before the counsellor's message.
    const local = await db.chatMessages.where('clientId').equals(clientId).first();
    const counsellor = (await db.chatMessages.where('conversation').equals(id).toArray()).find(
      (m) => m.authorKind === 'agent',
    );
    expect(local?.sendStatus).toBe('offline');
    expect(Date.parse(local!.loggedDate)).toBeLessThan(Date.parse(counsellor!.loggedDate));
    expect(await order()).toEqual(['Jag är orolig.', 'Svar från kuratorn', 'Skrivet utan nät']);

    // Sent: the local row takes the server's time, and the order is the server's.
    offline = false;
    await worker.flushOutbox();
    const sent = await waitForQuery(
      () => db.chatMessages.where('clientId').equals(clientId).first(),
      (row) => row?.sendStatus === 'sent',
    );
    const server = await staffMessages(id);
    expect(server.map((m) => m.message)).toEqual([
      'Jag är orolig.',
      'Svar från kuratorn',
      'Skrivet utan nät',
    ]);
    expect(sent?.loggedDate).toBe(server.find((m) => m.id === sent?.id)?.loggedDate);
    expect(await order()).toEqual(server.map((m) => m.message));

    // A refetch keeps it there, once.
    expect(outcomeOf(await worker.commands.openConversation(id))).toBe('ok');
    expect(await order()).toEqual(server.map((m) => m.message));
    await worker.commands.closeConversation(id);
  });
});
