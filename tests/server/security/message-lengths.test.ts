import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_MAX_LENGTH, MAIL_MAX_LENGTH, MESSAGE_MAX_LENGTH_BY_CHANNEL } from '../../../contract/limits.ts';
import { api, login, type TestServer } from '../../../harness/test-server.ts';
import { registerChild, startTarget } from '../../../harness/attack.ts';

/**
 * One message length per channel. The one-to-one chat took 4000 characters from a child where the
 * chat window, the README and the group chat said 700; a client that did not count could put a page
 * into a counsellor's live chat. Now each channel takes what contract/limits.ts says, from a child
 * and from a counsellor alike.
 */
let server: TestServer;
let counsellor = '';
beforeAll(async () => {
  server = await startTarget();
  counsellor = (await login(server.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token;
});
afterAll(async () => server?.dispose());

const text = (n: number) => 'å'.repeat(n);
const CONV = '/portal/features/conversations/conversationsapplication-id';

describe('a message', () => {
  it('in a one-to-one chat is at most the chat’s length, from the child and from the counsellor', async () => {
    expect(MESSAGE_MAX_LENGTH_BY_CHANNEL.chat).toBe(700);
    const child = await registerChild(server, 'chattlangd');
    const start = (t: string) =>
      api(server.url, '/portal/chat', { token: child.token, body: { subject: 'Chatt', text: t } });
    expect((await start(text(CHAT_MAX_LENGTH + 1))).status).toBe(400);
    const chat = await start(text(CHAT_MAX_LENGTH));
    expect(chat.status).toBe(200);
    const id = Number(chat.body!.id);
    const write = (t: string) =>
      api(server.url, '/portal/conversationmessage', {
        token: child.token,
        body: { conversation: id, content: t },
      });
    expect((await write(text(CHAT_MAX_LENGTH + 1))).status).toBe(400);
    expect((await write(text(4000))).status).toBe(400);
    expect((await write(text(CHAT_MAX_LENGTH))).status).toBe(201);

    expect(
      (await api(server.url, `/portal/staff/conversations/${id}/accept`, { token: counsellor, body: {} }))
        .status,
    ).toBe(200);
    const answer = (t: string) =>
      api(server.url, `/portal/staff/conversations/${id}/messages`, {
        token: counsellor,
        body: { content: t },
      });
    expect((await answer(text(CHAT_MAX_LENGTH + 1))).status).toBe(400);
    expect((await answer(text(CHAT_MAX_LENGTH))).status).toBe(201);
    const messages = (await api(server.url, `${CONV}/messages?conversation=${id}`, { token: child.token }))
      .body as {
      value: Array<{ message: string }>;
    };
    expect(Math.max(...messages.value.map((m) => m.message.length))).toBe(CHAT_MAX_LENGTH);
  });

  it('in a mail is at most the mail’s length', async () => {
    expect(MESSAGE_MAX_LENGTH_BY_CHANNEL.mail).toBe(4000);
    const child = await registerChild(server, 'brevlangd');
    const mail = (t: string) =>
      api(server.url, '/portal/mail', { token: child.token, body: { subject: 'Brev', text: t } });
    expect((await mail(text(MAIL_MAX_LENGTH + 1))).status).toBe(400);
    const sent = await mail(text(MAIL_MAX_LENGTH));
    expect(sent.status).toBe(200);
    const id = Number(sent.body!.id);
    const write = (t: string) =>
      api(server.url, '/portal/conversationmessage', {
        token: child.token,
        body: { conversation: id, content: t },
      });
    expect((await write(text(MAIL_MAX_LENGTH + 1))).status).toBe(400);
    expect((await write(text(MAIL_MAX_LENGTH))).status).toBe(201);
  });
});
