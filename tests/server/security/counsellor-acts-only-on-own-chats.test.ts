import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpTransportType, HubConnectionBuilder, LogLevel } from '@microsoft/signalr';
import { api, createStaffAccount, login, type TestServer } from '../../../harness/test-server.ts';
import { registerChild, startTarget } from '../../../harness/attack.ts';

/**
 * Attack: a counsellor posing as the child and reaching into a colleague's chat. Any counsellor
 * could post a message with the child as author through the child's route, write into a chat they
 * had not accepted, and resolve a chat another counsellor held. Staff now write only as themselves
 * (the staff API), only into what they accepted or answer, and end only their own.
 */
const CONVERSATIONS = '/portal/features/conversations/conversationsapplication-id';
let server: TestServer;
let kim: string;
let colleague: string;
beforeAll(async () => {
  server = await startTarget();
  kim = (await login(server.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token;
  await createStaffAccount(server, 'kollega', 'kollegans-losenord-9', ['counsellor'], 'Kollega');
  colleague = (await login(server.url, 'kollega', 'kollegans-losenord-9', 'portal-staff')).access_token;
});
afterAll(async () => server?.dispose());

async function acceptedChat() {
  const child = await registerChild(server);
  const chat = await api(server.url, '/portal/chat', {
    token: child.token,
    body: { subject: 'Hej', text: 'Jag behöver prata' },
  });
  const id = Number(chat.body!.id);
  expect(
    (await api(server.url, `/portal/staff/conversations/${id}/accept`, { token: kim, body: {} })).status,
  ).toBe(200);
  return { child, id };
}

const messagesOf = async (id: number, token: string) =>
  (await api(server.url, `${CONVERSATIONS}/messages?conversation=${id}`, { token })).body as {
    value: Array<{ message: string; authorKind: string }>;
  };

describe('a counsellor', () => {
  it('cannot write as the child through the child’s route', async () => {
    const { child, id } = await acceptedChat();
    const forged = await api(server.url, '/portal/conversationmessage', {
      token: kim,
      body: { conversation: id, content: 'Jag ljög, allt är bra' },
    });
    expect(forged.status).toBe(403);
    const { value } = await messagesOf(id, child.token);
    expect(value.map((m) => m.message)).not.toContain('Jag ljög, allt är bra');
  });

  it('cannot write into, read, type in or end a chat a colleague accepted', async () => {
    const { child, id } = await acceptedChat();
    const base = `/portal/staff/conversations/${id}`;
    expect(
      (
        await api(server.url, `${base}/messages`, {
          token: colleague,
          body: { content: 'Hej från kollegan' },
        })
      ).status,
    ).toBe(403);
    expect((await api(server.url, `${base}/messages`, { token: colleague })).status).toBe(403);
    expect((await api(server.url, `${base}/typing`, { token: colleague, body: {} })).status).toBe(403);
    expect((await api(server.url, `${base}/resolve`, { token: colleague, body: {} })).status).toBe(403);
    expect((await api(server.url, `${base}/accept`, { token: colleague, body: {} })).status).toBe(403);
    const conversation = await api(server.url, `${CONVERSATIONS}/conversations?conversation=${id}`, {
      token: child.token,
    });
    expect((conversation.body as { value: Array<{ state: string }> }).value[0]!.state).toBe('InProgress');
    expect((await messagesOf(id, child.token)).value.map((m) => m.message)).not.toContain(
      'Hej från kollegan',
    );
    // The one who accepted it writes and ends it.
    expect(
      (await api(server.url, `${base}/messages`, { token: kim, body: { content: 'Jag finns här' } })).status,
    ).toBe(201);
    expect((await api(server.url, `${base}/resolve`, { token: kim, body: {} })).status).toBe(200);
  });

  it('cannot write into a queued chat before accepting it', async () => {
    const child = await registerChild(server);
    const chat = await api(server.url, '/portal/chat', {
      token: child.token,
      body: { subject: 'Hej', text: 'Hej' },
    });
    const id = Number(chat.body!.id);
    const early = await api(server.url, `/portal/staff/conversations/${id}/messages`, {
      token: colleague,
      body: { content: 'Innan jag tagit chatten' },
    });
    expect(early.status).toBe(409);
    expect(
      (await api(server.url, `/portal/staff/conversations/${id}/resolve`, { token: colleague, body: {} }))
        .status,
    ).toBe(403);
  });

  it('gets a mail only by answering it first; the colleague then cannot answer it', async () => {
    const child = await registerChild(server);
    const mail = await api(server.url, '/portal/mail', {
      token: child.token,
      body: { subject: 'Fråga', text: 'Hur gör jag?' },
    });
    const id = Number(mail.body!.id);
    const [first, second] = await Promise.all([
      api(server.url, `/portal/staff/conversations/${id}/messages`, {
        token: kim,
        body: { content: 'Svar från Kim' },
      }),
      api(server.url, `/portal/staff/conversations/${id}/messages`, {
        token: colleague,
        body: { content: 'Svar från kollegan' },
      }),
    ]);
    expect([first.status, second.status].sort()).toEqual([201, 403]);
    const winner = first.status === 201 ? colleague : kim;
    expect(
      (await api(server.url, `/portal/staff/conversations/${id}/messages`, { token: winner })).status,
    ).toBe(403);
  });

  it('cannot take a queued chat that a colleague accepts at the same moment', async () => {
    const child = await registerChild(server);
    const chat = await api(server.url, '/portal/chat', {
      token: child.token,
      body: { subject: 'Hej', text: 'Hej' },
    });
    const id = Number(chat.body!.id);
    const answers = await Promise.all(
      [kim, colleague, kim, colleague].map((token) =>
        api(server.url, `/portal/staff/conversations/${id}/accept`, { token, body: {} }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.every((a) => [200, 403, 409].includes(a.status))).toBe(true);
  });

  it('hears nothing more of a queued chat a colleague accepts', async () => {
    const child = await registerChild(server);
    const id = Number(
      (await api(server.url, '/portal/chat', { token: child.token, body: { text: 'Hej' } })).body!.id,
    );
    const events: string[] = [];
    const watcher = new HubConnectionBuilder()
      .withUrl(`${server.url}/hubs/portalaccountevents`, {
        transport: HttpTransportType.WebSockets,
        accessTokenFactory: () => colleague,
      })
      .configureLogging(LogLevel.None)
      .build();
    watcher.on('SendEvent', (name: string, _data: unknown, key: string) => events.push(`${name} ${key}`));
    await watcher.start();
    try {
      await watcher.invoke('SubscribeToEntity', `Conversation:${id}`);
      await api(server.url, `/portal/staff/conversations/${id}/accept`, { token: kim, body: {} });
      await api(server.url, `/portal/staff/conversations/${id}/messages`, {
        token: kim,
        body: { content: 'Hej, jag heter Kim' },
      });
      // A new chat reaches every counsellor's account: once it is here, anything sent before it is too.
      const marker = new Promise<void>((resolve) =>
        watcher.on('SendEvent', (name: string, _data: unknown, key: string) => {
          if (name === 'Conversation.Updated' && key !== `Conversation:${id}`) resolve();
        }),
      );
      const other = await registerChild(server);
      await api(server.url, '/portal/chat', { token: other.token, body: { text: 'Hej' } });
      await marker;
      expect(events).toContain(`Conversation.Updated Conversation:${id}`);
      expect(events).not.toContain(`ConversationMessageCreated Conversation:${id}`);
    } finally {
      await watcher.stop();
    }
  });

  it('is not in the child app: a staff token gets nothing from the child’s API', async () => {
    const { id } = await acceptedChat();
    expect(
      (await api(server.url, `${CONVERSATIONS}/messages?conversation=${id}`, { token: kim })).status,
    ).toBe(403);
    expect(
      (await api(server.url, '/portal/mail', { token: kim, body: { text: 'Som ett barn' } })).status,
    ).toBe(403);
  });
});
