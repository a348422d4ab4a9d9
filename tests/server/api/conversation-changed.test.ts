import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, login, startTestServer, type TestServer } from '../../../harness/test-server.ts';
import type { Conversation } from '../../../contract/conversations.ts';
import type * as ConversationChanged from '../../../server/conversations/changed.ts';

/**
 * Every handler that changes a conversation announces it through the one conversationChanged of
 * server/conversations/changed.ts (no hook elsewhere watches routes for it). The module is
 * wrapped so the test sees each call; a handler that publishes on its own, or forgets to, fails here.
 */
const calls = vi.hoisted(() => [] as Array<{ id: number; audience: unknown }>);
vi.mock('../../../server/conversations/changed.ts', async (importOriginal) => {
  const original = await importOriginal<typeof ConversationChanged>();
  return {
    ...original,
    conversationChanged: (...args: Parameters<typeof original.conversationChanged>) => {
      calls.push({ id: args[1], audience: args[2] ?? {} });
      return original.conversationChanged(...args);
    },
  };
});

let server: TestServer;
let counsellor: string;
const CONV = '/portal/features/conversations/conversationsapplication-id';
let children = 0;

beforeAll(async () => {
  server = await startTestServer();
  counsellor = (await login(server.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token;
});
afterAll(async () => server.dispose());
beforeEach(() => {
  calls.length = 0;
});

async function newChild() {
  const username = `andrad-${++children}`;
  await api(server.url, '/portal/api/accounts/registercontact', {
    body: { username, password: 'blå-ballong-73' },
  });
  return (await login(server.url, username, 'blå-ballong-73')).access_token;
}
const open = async (token: string, kind: 'chat' | 'mail') =>
  (await api(server.url, `/portal/${kind}`, { token, body: { subject: 'Hej', text: 'Hej!' } }))
    .body as unknown as Conversation;
const announced = (id: number) => calls.filter((c) => c.id === id).map((c) => c.audience);

describe('conversationChanged', () => {
  it('is how the child’s calls announce a new chat or mail, a mail message, leaving, resolving and deleting', async () => {
    const child = await newChild();
    const chat = await open(child, 'chat');
    expect(announced(chat.id)).toEqual([{ watchers: false }]);
    const left = await api(server.url, `${CONV}/cancel`, {
      method: 'PUT',
      token: child,
      body: { conversation: chat.id },
    });
    expect(left.status).toBe(200);
    expect(announced(chat.id)).toEqual([{ watchers: false }, {}]);

    const mail = await open(child, 'mail');
    calls.length = 0;
    const written = await api(server.url, '/portal/conversationmessage', {
      token: child,
      body: { conversation: mail.id, content: 'Och en sak till' },
    });
    expect(written.status).toBe(201);
    expect(announced(mail.id)).toEqual([{ watchers: false }]);
    for (const action of ['resolve', 'delete']) {
      calls.length = 0;
      const res = await api(server.url, `${CONV}/${action}`, {
        method: 'PUT',
        token: child,
        body: { conversation: mail.id },
      });
      expect(res.status).toBe(200);
      expect(announced(mail.id)).toHaveLength(1);
    }
  });

  it('is how the counsellor’s accept, answer and resolve announce, and a refused call announces nothing', async () => {
    const child = await newChild();
    const chat = await open(child, 'chat');
    calls.length = 0;
    const staff = (path: string, body: unknown = {}) =>
      api(server.url, `/portal/staff/conversations/${chat.id}/${path}`, { token: counsellor, body });
    expect((await staff('messages', { content: 'För tidigt' })).status).toBe(409);
    expect(calls).toEqual([]);
    expect((await staff('accept')).status).toBe(200);
    expect(announced(chat.id)).toEqual([{}]);
    expect((await staff('messages', { content: 'Hej, jag heter Kim.' })).status).toBe(201);
    expect(announced(chat.id)).toEqual([{}, { queue: false }]);
    expect((await staff('resolve')).status).toBe(200);
    expect(announced(chat.id)).toEqual([{}, { queue: false }, { queue: false }]);
  });
});
