import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { api, login } from '../../../harness/test-server.ts';
import { valueOf, waitForQuery } from '../helpers.ts';
import type { WorkerFixture } from '../worker-fixture.ts';
import { CONV, signedInWorker, startedChat, useGroupTestEnv } from './group-helpers.ts';
import { outcomeOf } from '../../../worker/base/result.ts';

const env = useGroupTestEnv();

async function participant(code: string, options: { fetch?: typeof fetch } = {}) {
  const fixture = await signedInWorker(env.server, code, null, options);
  env.fixtures.push(fixture);
  return fixture;
}

const messagesOf = (f: WorkerFixture, conversationId: number) =>
  f.db.chatMessages.where('conversation').equals(conversationId).toArray();

describe('group chat in Dexie', () => {
  it('opens a chat, connects, and receives a leader’s message through the hub', async () => {
    const { meetingId, conversationId } = await startedChat(env.server, env.leader, 'Chatt 1');
    const a = await participant('DEMOKOD-0001');
    expect(outcomeOf(await a.worker.commands.openGroupChat(conversationId))).toBe('ok');
    expect(await a.db.conversations.get(conversationId)).toMatchObject({ systemType: 'groupchat' });
    const connections = await a.db.connections.where('conversation').equals(conversationId).toArray();
    expect(connections.map((c) => c.contactName)).toContain('Alex');

    const content = `Välkomna ${Date.now()}`;
    await api(env.server.url, `/portal/staff/meetings/${meetingId}/messages`, {
      token: env.leader,
      body: { content },
    });
    const rows = await waitForQuery(
      () => messagesOf(a, conversationId),
      (list) => list.some((m) => m.message === content),
    );
    expect(rows.find((m) => m.message === content)).toMatchObject({
      authorKind: 'agent',
      key: expect.any(String),
    });
    await a.worker.commands.closeGroupChat(conversationId);
  });

  it('sends a message written offline exactly once when the network returns', async () => {
    const { conversationId } = await startedChat(env.server, env.leader, 'Chatt 2');
    let offline = false;
    const a = await participant('DEMOKOD-0001', {
      fetch: (input, init) => (offline ? Promise.reject(new TypeError('offline')) : fetch(input, init)),
    });
    expect(outcomeOf(await a.worker.commands.openGroupChat(conversationId))).toBe('ok');

    offline = true;
    const content = `Skrivet offline ${Date.now()}`;
    const clientId = valueOf(await a.worker.commands.sendChatMessage(conversationId, content));
    expect(await a.db.chatMessages.get(`local:${clientId}`)).toMatchObject({
      sendStatus: 'sending',
      authorKind: 'contact',
      contactName: 'Alex',
    });
    await waitForQuery(
      () => a.db.outbox.get(clientId),
      (row) => row?.status === 'failed' && row.lastStatus === 0,
    );

    offline = false;
    await a.worker.onOnline(true);
    const sent = await waitForQuery(
      () => messagesOf(a, conversationId),
      (list) => list.some((m) => m.message === content && m.id !== null),
    );
    expect(sent.find((m) => m.message === content)).toMatchObject({ clientId, sendStatus: 'sent' });
    // A refetch (a second tab opening the chat) also returns the message: still one row.
    expect(outcomeOf(await a.worker.commands.openGroupChat(conversationId))).toBe('ok');
    const rows = (await messagesOf(a, conversationId)).filter((m) => m.message === content);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.key).toBe(String(rows[0]?.id));

    const onServer = await env.server.ctx.db
      .selectFrom('conversation_messages')
      .select('id')
      .where('conversation_id', '=', conversationId)
      .where('message', '=', content)
      .execute();
    expect(onServer).toHaveLength(1);
  });

  it('shows who else is typing, but not the user themself', async () => {
    const { conversationId } = await startedChat(env.server, env.leader, 'Chatt 3');
    const a = await participant('DEMOKOD-0001');
    expect(outcomeOf(await a.worker.commands.openGroupChat(conversationId))).toBe('ok');
    const own = (await a.db.profile.get('current'))!.contactId;
    // Make sure the subscription holds, so our own typing event does reach us (and is ignored).
    expect(await a.worker.subscribe(`Conversation:${conversationId}`, 'group')).toBe(true);
    await a.worker.commands.sendTyping(conversationId);

    const b = (await login(env.server.url, 'DEMOKOD-0002')).access_token;
    const typed = await api(env.server.url, `${CONV}/activity`, {
      token: b,
      body: { conversation: conversationId, type: 'Typing', content: '' },
    });
    expect(typed.status).toBe(200);
    const rows = await waitForQuery(
      () => a.db.typing.where('conversation').equals(conversationId).toArray(),
      (list) => list.length > 0,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ contactName: expect.any(String) });
    expect(rows[0]?.contactId).not.toBe(own);
  });

  it('signs out of an open group chat without writing a Log activity', async () => {
    const { conversationId } = await startedChat(env.server, env.leader, 'Utloggning');
    const activities: string[] = [];
    const a = await participant('DEMOKOD-0001', {
      fetch: (input, init) => {
        if (String(input).includes('/activity') && typeof init?.body === 'string') {
          activities.push((JSON.parse(init.body) as { type: string }).type);
        }
        return fetch(input, init);
      },
    });
    expect(outcomeOf(await a.worker.commands.openGroupChat(conversationId))).toBe('ok');
    expect(activities).toContain('Connect');

    await a.worker.logout('user');
    expect((await a.db.session.get('current'))?.status).not.toBe('authenticated');
    expect(activities).not.toContain('Log');
  });
});
