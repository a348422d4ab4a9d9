import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import { api, login, startTestServer, type TestServer } from '../../../harness/test-server.ts';
import type { Meeting } from '../../../contract/meetings.ts';
import type {
  ConversationConnectionWire,
  ConversationMessageWire,
  Conversation,
} from '../../../contract/conversations.ts';

let server: TestServer;
let leader: string;
let a: string;
let b: string;
let child: string;
const hubs: HubConnection[] = [];
const CONV = '/portal/features/conversations/conversationsapplication-id';

beforeAll(async () => {
  server = await startTestServer({ variant: 'gruppstod' });
  leader = (await login(server.url, 'gruppledare', 'gruppledare-losenord', 'portal-staff')).access_token;
  a = (await login(server.url, 'DEMOKOD-0001')).access_token;
  b = (await login(server.url, 'DEMOKOD-0002')).access_token;
  child = (await login(server.url, 'demo', 'demo-losenord')).access_token;
});
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((h) => h.stop()));
});
afterAll(async () => server.dispose());

async function hub(token: string) {
  const connection = new HubConnectionBuilder()
    .withUrl(`${server.url}/hubs/portalaccountevents`, {
      transport: HttpTransportType.WebSockets,
      accessTokenFactory: () => token,
    })
    .configureLogging(LogLevel.None)
    .build();
  hubs.push(connection);
  await connection.start();
  return connection;
}
const nextEvent = (connection: HubConnection, name: string) =>
  new Promise<unknown>((resolve) =>
    connection.on('SendEvent', (event: string, data: unknown) => event === name && resolve(data)),
  );

describe('a group meeting from start to end', () => {
  it('starts, carries messages, typing and presence, and ends', async () => {
    const created = await api(server.url, '/portal/staff/meetings', {
      token: leader,
      body: {
        seriesId: 1,
        subject: 'Extraträff',
        description: 'Vi ses!',
        startDate: new Date().toISOString(),
        duration: 60,
      },
    });
    expect(created.status).toBe(201);
    const meeting = created.body as unknown as Meeting;
    expect(meeting.state).toBe('NotStarted');

    const hubA = await hub(a);
    const started = nextEvent(hubA, 'Meeting.Updated');
    const start = await api(server.url, `/portal/staff/meetings/${meeting.id}/start`, {
      token: leader,
      body: {},
    });
    expect(start.status).toBe(200);
    expect(await started).toMatchObject({ id: meeting.id });
    const conversationId = (start.body as unknown as Meeting).conversation!.id;

    const list = await api(
      server.url,
      `${CONV}/conversations?take=9999&skip=0&selection=mine&conversation=${conversationId}`,
      { token: a },
    );
    expect((list.body as { value: Conversation[] }).value[0]).toMatchObject({
      id: conversationId,
      state: 'InProgress',
      systemType: 'groupchat',
      lastAgentMessageDate: null,
    });

    await hubA.invoke('SubscribeToEntity', `Conversation:${conversationId}`);
    const hubB = await hub(b);
    await hubB.invoke('SubscribeToEntity', `Conversation:${conversationId}`);

    const leaderMessage = nextEvent(hubA, 'ConversationMessageCreated');
    await api(server.url, `/portal/staff/meetings/${meeting.id}/messages`, {
      token: leader,
      body: { content: 'Välkomna!' },
    });
    expect(await leaderMessage).toMatchObject({ conversationId });

    const typing = nextEvent(hubB, 'conversation.contactistyping');
    await api(server.url, `${CONV}/activity`, {
      token: a,
      body: { conversation: conversationId, type: 'Typing', content: '' },
    });
    expect(await typing).toMatchObject({ contactName: 'Alex' });

    const connected = nextEvent(hubB, 'conversation.contactconnected');
    await api(server.url, `${CONV}/activity`, {
      token: a,
      body: { conversation: conversationId, type: 'Connect' },
    });
    await connected;
    const sent = await api(server.url, '/portal/conversationmessage', {
      token: a,
      body: { content: 'Hej allihop', conversation: conversationId, loggedDate: new Date().toISOString() },
    });
    expect(sent.status).toBe(201);
    expect(
      (
        await api(server.url, '/portal/conversationmessage', {
          token: a,
          body: { content: 'x'.repeat(701), conversation: conversationId },
        })
      ).status,
    ).toBe(400);

    const messages = (
      (
        await api(server.url, `/portal/groupconversationmessages?conversationId=${conversationId}`, {
          token: b,
        })
      ).body as { value: ConversationMessageWire[] }
    ).value;
    expect(messages.map((m) => [m.authorKind, m.message, m.agentName ?? m.contactName])).toEqual([
      ['agent', 'Välkomna!', 'Gruppledare Sara'],
      ['contact', 'Hej allihop', 'Alex'],
    ]);
    const connections = (
      (await api(server.url, `${CONV}/conversationConnections?conversation=${conversationId}`, { token: b }))
        .body as { value: ConversationConnectionWire[] }
    ).value;
    expect(connections).toHaveLength(1);
    expect(connections[0]).toMatchObject({ contactName: 'Alex', disconnectedDate: null });

    const left = nextEvent(hubB, 'conversation.contactdisconnected');
    await api(server.url, `${CONV}/activity`, {
      token: a,
      body: { conversation: conversationId, type: 'Disconnect' },
    });
    await left;

    const ended = nextEvent(hubB, 'Conversation.Updated');
    const endedFrom = Date.now();
    expect(
      (await api(server.url, `/portal/staff/meetings/${meeting.id}/end`, { token: leader, body: {} })).status,
    ).toBe(200);
    const endedBy = Date.now();
    await ended;
    // Ended 59 minutes early: what participants read is when it really ended, not the plan.
    const seen = (
      await api(
        server.url,
        `/portal/features/meetings/meetingsapplicationfeature-id/meeting?meetingId=${meeting.id}`,
        { token: a },
      )
    ).body as unknown as Meeting;
    expect(seen.state).toBe('Completed');
    expect(Date.parse(seen.endDate)).toBeGreaterThanOrEqual(endedFrom - 1000);
    expect(Date.parse(seen.endDate)).toBeLessThanOrEqual(endedBy + 1000);
    // The meeting is over: its chat takes no more messages (a one-to-one chat marks a late one).
    const late = await api(server.url, '/portal/conversationmessage', {
      token: b,
      body: { content: 'För sent?', conversation: conversationId },
    });
    expect(late).toMatchObject({ status: 409, body: { error: 'conflict', status: 'ended' } });
    // Its history stays readable ('Se chatthistorik').
    const history = (
      await api(server.url, `/portal/groupconversationmessages?conversationId=${conversationId}`, {
        token: b,
      })
    ).body as { value: ConversationMessageWire[] };
    expect(history.value.map((m) => m.message)).toEqual(['Välkomna!', 'Hej allihop']);
    const after = (
      await api(server.url, `${CONV}/conversations?conversation=${conversationId}`, { token: a })
    ).body as { value: Conversation[] };
    expect(after.value[0]?.state).toBe('Resolved');
  });

  it('keeps the group chat from accounts outside the series and staff routes from participants', async () => {
    const meetings = (
      (await api(server.url, '/portal/staff/meetings', { token: leader })).body as { value: Meeting[] }
    ).value;
    const withChat = meetings.find((m) => m.conversation)!;
    const id = withChat.conversation!.id;
    expect(
      (await api(server.url, `/portal/groupconversationmessages?conversationId=${id}`, { token: child }))
        .status,
    ).toBe(403);
    expect(
      (
        await api(server.url, '/portal/conversationmessage', {
          token: child,
          body: { content: 'hej', conversation: id },
        })
      ).status,
    ).toBe(403);
    for (const token of [a, child]) {
      expect((await api(server.url, '/portal/staff/meetings', { token })).status).toBe(403);
      expect(
        (await api(server.url, `/portal/staff/meetings/${withChat.id}/start`, { token, body: {} })).status,
      ).toBe(403);
    }
    expect((await api(server.url, '/portal/staff/meetings')).status).toBe(401);
  });
});

describe('a deleted meeting', () => {
  it('disappears from the participants’ list and answers 404, unlike a cancelled one', async () => {
    const create = (subject: string) =>
      api(server.url, '/portal/staff/meetings', {
        token: leader,
        body: {
          seriesId: 1,
          subject,
          description: '',
          startDate: new Date(Date.now() + 86_400_000).toISOString(),
          duration: 60,
        },
      });
    const gone = (await create('Ska tas bort')).body as unknown as Meeting;
    const cancelled = (await create('Ställs in')).body as unknown as Meeting;
    expect(
      (await api(server.url, `/portal/staff/meetings/${gone.id}`, { method: 'DELETE', token: leader }))
        .status,
    ).toBe(200);
    expect(
      (await api(server.url, `/portal/staff/meetings/${cancelled.id}/cancel`, { token: leader, body: {} }))
        .status,
    ).toBe(200);
    const list = (
      (
        await api(server.url, '/portal/features/meetings/meetingsapplicationfeature-id/meetings', {
          token: a,
        })
      ).body as { value: Meeting[] }
    ).value;
    expect(list.some((m) => m.id === gone.id)).toBe(false);
    expect(list.find((m) => m.id === cancelled.id)?.state).toBe('Cancelled');
    expect(
      (
        await api(
          server.url,
          `/portal/features/meetings/meetingsapplicationfeature-id/meeting?meetingId=${gone.id}`,
          { token: a },
        )
      ).status,
    ).toBe(404);
  });

  it('closes its group chat: no reading, writing or following it, while a cancelled one’s chat takes no more messages', async () => {
    const running = async (subject: string) => {
      const created = await api(server.url, '/portal/staff/meetings', {
        token: leader,
        body: { seriesId: 1, subject, description: '', startDate: new Date().toISOString(), duration: 60 },
      });
      const meeting = created.body as unknown as Meeting;
      const start = await api(server.url, `/portal/staff/meetings/${meeting.id}/start`, {
        token: leader,
        body: {},
      });
      return { meeting, conversationId: (start.body as unknown as Meeting).conversation!.id };
    };
    const write = (conversationId: number, content: string) =>
      api(server.url, '/portal/conversationmessage', {
        token: a,
        body: { content, conversation: conversationId },
      });
    const read = (conversationId: number) =>
      api(server.url, `/portal/groupconversationmessages?conversationId=${conversationId}`, { token: a });

    const deleted = await running('Tas bort under träffen');
    expect((await write(deleted.conversationId, 'Innan')).status).toBe(201);
    const hubA = await hub(a);
    await hubA.invoke('SubscribeToEntity', `Conversation:${deleted.conversationId}`);
    expect(
      (
        await api(server.url, `/portal/staff/meetings/${deleted.meeting.id}`, {
          method: 'DELETE',
          token: leader,
        })
      ).status,
    ).toBe(200);
    expect((await read(deleted.conversationId)).status).toBe(403);
    expect((await write(deleted.conversationId, 'Efter')).status).toBe(403);
    await expect(
      hubA.invoke('SubscribeToEntity', `Conversation:${deleted.conversationId}`),
    ).rejects.toThrow();
    const mine = (
      await api(server.url, `${CONV}/conversations?conversation=${deleted.conversationId}`, { token: a })
    ).body as { value: Conversation[] };
    expect(mine.value).toEqual([]);

    const cancelled = await running('Ställs in under träffen');
    expect(
      (
        await api(server.url, `/portal/staff/meetings/${cancelled.meeting.id}/cancel`, {
          token: leader,
          body: {},
        })
      ).status,
    ).toBe(200);
    expect((await write(cancelled.conversationId, 'Efter')).status).toBe(409);
    expect((await read(cancelled.conversationId)).status).toBe(200);
  });
});
