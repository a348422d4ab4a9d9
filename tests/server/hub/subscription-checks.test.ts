/**
 * What a storm of returning subscriptions costs the database, and that the checks stay exact: a
 * frame of many SubscribeToEntity invocations is checked with one token verification and one batch
 * of access queries (not two statements per subscription), every answer is the one the
 * one-at-a-time rules give, and access taken away (a colleague accepts the chat, the meeting is
 * deleted, the membership ends) refuses the very next subscription: nothing is remembered.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import type { Conversation } from '../../../contract/conversations.ts';
import type { Principal } from '../../../server/auth/principal.ts';
import { VERIFIED_TOKEN_TTL_MS } from '../../../server/hub/verified-tokens.ts';
import {
  canSeeConversation,
  canSeeEntity,
  canSeeMeeting,
  isSeriesMember,
  shareSeries,
} from '../../../server/auth/entity-access.ts';
import {
  api,
  claimsOf,
  createStaffAccount,
  login,
  startTestServer,
  type TestServer,
} from '../../../harness/test-server.ts';
import { RawClient } from './helpers.ts';

let server: TestServer;
let recording = false;
const statements: string[] = [];
const open: HubConnection[] = [];

beforeAll(async () => {
  server = await startTestServer({
    variant: 'main',
    build: { onQuery: (q) => void (recording && statements.push(q.sql)) },
  });
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.stop()));
});
afterAll(async () => server?.dispose());

const HUB = '/hubs/portalaccountevents';
/** What the server runs to verify an access token (server/auth/tokens.ts): one per verification. */
const isTokenCheck = (sql: string) => sql.includes('"revoked_access_tokens"');
/** What an entity check reads. */
const isAccessCheck = (sql: string) =>
  /from "(conversations|meetings|series_memberships)"/.test(sql) && !isTokenCheck(sql);

async function negotiate(token: string): Promise<string> {
  const res = await fetch(`${server.url}${HUB}/negotiate?negotiateVersion=1`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { connectionToken: string }).connectionToken;
}

/** The WebSocket upgrade of a negotiated connection, as the client makes it (token in the query). */
const upgrade = (token: string, connectionToken: string) =>
  new RawClient(`${server.url.replace('http', 'ws')}${HUB}?id=${connectionToken}&access_token=${token}`);

/** A raw WebSocket hub connection past its handshake: it can send many invocations in one frame. */
async function rawConnection(token: string): Promise<RawClient> {
  const client = upgrade(token, await negotiate(token));
  expect(await client.opened()).toBe(101);
  await client.handshake();
  return client;
}

const revoke = (token: string, hint: 'access_token' | 'refresh_token') =>
  fetch(`${server.url}/connect/revocation`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token, token_type_hint: hint, client_id: 'portal-web' }),
  });

/** Resolves with the completions of invocation ids 1..n (their error, or null) once all have come. */
function completions(client: RawClient, n: number): Promise<Map<string, string | null>> {
  const collect = () => {
    const done = new Map<string, string | null>();
    for (const m of client.messages()) {
      if (m.type === 3) done.set(String(m.invocationId), typeof m.error === 'string' ? m.error : null);
    }
    return done;
  };
  return new Promise((resolve) => {
    const check = () => {
      const done = collect();
      if (done.size < n) return;
      client.socket.off('message', check);
      resolve(done);
    };
    client.socket.on('message', check);
    check();
  });
}

function hubClient(token: string): HubConnection {
  const connection = new HubConnectionBuilder()
    .withUrl(`${server.url}${HUB}`, {
      transport: HttpTransportType.WebSockets,
      accessTokenFactory: () => token,
    })
    .configureLogging(LogLevel.None)
    .build();
  open.push(connection);
  return connection;
}

/** Subscribes on a fresh connection, as a client coming back after a restart does: allowed or not. */
async function subscribesAfresh(token: string, key: string): Promise<boolean> {
  const connection = hubClient(token);
  await connection.start();
  try {
    await connection.invoke('SubscribeToEntity', key);
    return true;
  } catch {
    return false;
  } finally {
    await connection.stop();
  }
}

const principalOf = async (token: string): Promise<Principal> =>
  (await server.ctx.tokens.verifyAccessToken(token))!;

describe('a burst of returning subscriptions', () => {
  it('costs one token verification and one batch of access queries, with each answer exact', async () => {
    const child = (await login(server.url, 'demo', 'demo-losenord')).access_token;
    const mails: number[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await api(server.url, '/portal/mail', {
        token: child,
        body: { subject: `Brev ${i}`, text: 'Hej' },
      });
      expect(res.status).toBe(200);
      mails.push((res.body as unknown as Conversation).id);
    }
    // Someone else's threads, in the same frame: refused, each of them.
    const other = (await login(server.url, 'DEMOKOD-0001')).access_token;
    const others: number[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await api(server.url, '/portal/mail', {
        token: other,
        body: { subject: `Annat ${i}`, text: 'Hej' },
      });
      others.push((res.body as unknown as Conversation).id);
    }
    const keys = [...mails, ...others].map((id) => `Conversation:${id}`);
    statements.length = 0;
    recording = true;
    const client = await rawConnection(child);
    client.send(
      ...keys.map((key, i) => ({
        type: 1,
        invocationId: String(i + 1),
        target: 'SubscribeToEntity',
        arguments: [key],
      })),
    );
    const done = await completions(client, keys.length);
    recording = false;
    client.close();

    keys.forEach((_, i) => expect(done.get(String(i + 1))).toBe(i < mails.length ? null : 'Forbidden'));
    // The negotiate's verification serves the upgrade and the whole frame. One at a time, this was
    // 42 verifications (negotiate, upgrade, each subscription) and 40 conversation reads.
    expect(statements.filter(isTokenCheck)).toHaveLength(1);
    expect(statements.filter(isAccessCheck).length).toBeLessThanOrEqual(2);
  });

  it('answers a batch of every kind of check as the one-at-a-time rules do', async () => {
    const { db } = server.ctx;
    const tokens = [
      (await login(server.url, 'demo', 'demo-losenord')).access_token,
      (await login(server.url, 'DEMOKOD-0001')).access_token,
      (await login(server.url, 'DEMOKOD-0002')).access_token,
      (await login(server.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token,
      (await login(server.url, 'gruppledare', 'gruppledare-losenord', 'portal-staff')).access_token,
    ];
    const principals = await Promise.all(tokens.map(principalOf));
    // A deleted meeting among them: nobody's any more.
    const meetings = await db.selectFrom('meetings').select(['id', 'conversation_id']).execute();
    expect(meetings.length).toBeGreaterThan(1);
    await db
      .updateTable('meetings')
      .set({ deleted_date: new Date().toISOString() })
      .where('id', '=', meetings[0]!.id)
      .execute();
    const conversations = (await db.selectFrom('conversations').select('id').execute()).map((r) => r.id);
    const series = (await db.selectFrom('series').select('id').execute()).map((r) => r.id);
    const contacts = (await db.selectFrom('accounts').select('contact_id').execute()).map(
      (r) => r.contact_id,
    );
    const keys = [
      ...conversations.map((id) => `Conversation:${id}`),
      ...meetings.map((m) => `Meeting:${m.id}`),
      ...series.map((id) => `Series:${id}`),
      ...contacts.map((id) => `Contact:${id}`),
      'Conversation:999999',
      'Meeting:999999',
      'Series:999999',
      'Contact:999999',
      'PeerBoard:1',
      'Nonsense:1',
    ];

    // The rules one at a time, each with its own queries.
    const expected: boolean[] = [];
    for (const p of principals) {
      for (const key of keys) {
        const [type, raw] = key.split(':');
        const id = Number(raw);
        expected.push(
          type === 'Conversation'
            ? await canSeeConversation(db, p, id)
            : type === 'Meeting'
              ? await canSeeMeeting(db, p, id)
              : type === 'Series'
                ? await isSeriesMember(db, p.accountId, id)
                : type === 'Contact'
                  ? id === p.contactId || (await shareSeries(db, p.accountId, id))
                  : type === 'PeerBoard',
        );
      }
    }
    expect(expected.filter(Boolean).length).toBeGreaterThan(principals.length);

    statements.length = 0;
    recording = true;
    const batched = await Promise.all(principals.flatMap((p) => keys.map((key) => canSeeEntity(db, p, key))));
    recording = false;
    expect(batched).toEqual(expected);
    // Conversations, meetings, other contacts' series, then the memberships: four statements.
    expect(statements.filter(isAccessCheck).length).toBeLessThanOrEqual(4);
  });
});

describe('a client coming back', () => {
  it('has its token verified once: the negotiate’s verification serves its upgrade and subscription', async () => {
    const child = (await login(server.url, 'demo', 'demo-losenord')).access_token;
    const { contactId } = claimsOf(child);
    statements.length = 0;
    recording = true;
    const client = await rawConnection(child);
    client.send({
      type: 1,
      invocationId: '1',
      target: 'SubscribeToEntity',
      arguments: [`Contact:${contactId}`],
    });
    const done = await completions(client, 1);
    recording = false;
    client.close();
    expect(done.get('1')).toBeNull();
    // Negotiate, upgrade and subscription verified it one after another before.
    expect(statements.filter(isTokenCheck)).toHaveLength(1);
  });

  it('is refused at once when its token was revoked since that verification: logout, or the token itself', async () => {
    for (const hint of ['refresh_token', 'access_token'] as const) {
      const tokens = await login(server.url, 'demo', 'demo-losenord');
      const child = tokens.access_token;
      const { contactId } = claimsOf(child);
      // Connected and subscribed: the hub has verified the token a moment ago.
      const connected = await rawConnection(child);
      connected.send({
        type: 1,
        invocationId: '1',
        target: 'SubscribeToEntity',
        arguments: [`Contact:${contactId}`],
      });
      expect((await completions(connected, 1)).get('1')).toBeNull();
      const negotiated = await negotiate(child);

      const closed = new Promise((resolve) => connected.socket.once('close', resolve));
      expect((await revoke(hint === 'refresh_token' ? tokens.refresh_token : child, hint)).status).toBe(200);
      await closed;
      // The upgrade of a connection negotiated before the revocation, and a new negotiate.
      expect(await upgrade(child, negotiated).opened()).toBe(401);
      const again = await fetch(`${server.url}${HUB}/negotiate?negotiateVersion=1`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${child}` },
      });
      expect(again.status).toBe(401);
    }
  });
});

describe('a token checked again by its claims', () => {
  it('past the trusted seconds, asks the database: a change this process never heard of refuses it', async () => {
    const child = (await login(server.url, 'demo', 'demo-losenord')).access_token;
    const { contactId } = claimsOf(child);
    const principal = await principalOf(child);
    expect(await server.ctx.tokens.stillValid(principal)).toBe(true);
    const client = await rawConnection(child);
    // Every token of the account revoked by another process (its generation raised) whose
    // backplane message never came; then the trusted seconds go by.
    await server.ctx.db
      .updateTable('accounts')
      .set((eb) => ({ token_generation: eb('token_generation', '+', 1) }))
      .where('id', '=', principal.accountId)
      .execute();
    expect(await server.ctx.tokens.stillValid(principal)).toBe(false);
    const later = Date.now() + VERIFIED_TOKEN_TTL_MS + 1;
    vi.spyOn(Date, 'now').mockReturnValue(later);
    try {
      client.send({
        type: 1,
        invocationId: '1',
        target: 'SubscribeToEntity',
        arguments: [`Contact:${contactId}`],
      });
      const closed = await new Promise<Record<string, unknown>>((resolve) => {
        const check = () => {
          const close = client.messages().find((m) => m.type === 7);
          if (close) resolve(close);
        };
        client.socket.on('message', check);
        check();
      });
      expect(closed.error).toBe('The access token is no longer valid.');
    } finally {
      vi.restoreAllMocks();
      client.close();
    }
  });
});

describe('access taken away', () => {
  it('refuses the next subscription at once: a chat a colleague accepted', async () => {
    const child = (await login(server.url, 'demo', 'demo-losenord')).access_token;
    await createStaffAccount(server, 'kurator-b', 'kurator-b-losenord', ['counsellor']);
    const mine = (await login(server.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token;
    const colleague = (await login(server.url, 'kurator-b', 'kurator-b-losenord', 'portal-staff'))
      .access_token;
    const chat = (await api(server.url, '/portal/chat', { token: child, body: { subject: 'Chatt' } }))
      .body as unknown as Conversation;
    const key = `Conversation:${chat.id}`;
    // In the queue every counsellor may watch it.
    expect(await subscribesAfresh(mine, key)).toBe(true);
    expect(await subscribesAfresh(colleague, key)).toBe(true);
    const accepted = await api(server.url, `/portal/staff/conversations/${chat.id}/accept`, {
      token: colleague,
      body: {},
    });
    expect(accepted.status).toBe(200);
    expect(await subscribesAfresh(mine, key)).toBe(false);
    expect(await subscribesAfresh(colleague, key)).toBe(true);
    expect(await subscribesAfresh(child, key)).toBe(true);
  });

  it('refuses the next subscription at once: a deleted meeting, and a membership that ended', async () => {
    const { db } = server.ctx;
    const participant = (await login(server.url, 'DEMOKOD-0003')).access_token;
    const leader = (await login(server.url, 'gruppledare', 'gruppledare-losenord', 'portal-staff'))
      .access_token;
    const { accountId } = claimsOf(participant);
    const { series_id: seriesId } = await db
      .selectFrom('series_memberships')
      .select('series_id')
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    // A meeting of the participant's series, started, so that it has its group chat.
    const created = await api(server.url, '/portal/staff/meetings', {
      token: leader,
      body: {
        seriesId,
        subject: 'Träff',
        description: 'Träff',
        startDate: new Date().toISOString(),
        duration: 60,
      },
    });
    expect(created.status).toBeLessThan(300);
    const meeting = created.body as unknown as { id: number };
    const started = await api(server.url, `/portal/staff/meetings/${meeting.id}/start`, {
      token: leader,
      body: {},
    });
    const chat = (started.body as { conversation?: { id: number } }).conversation;
    expect(chat).toBeDefined();
    const meetingKey = `Meeting:${meeting.id}`;
    const chatKey = `Conversation:${chat!.id}`;
    const seriesKey = `Series:${seriesId}`;
    // The same burst twice, with the meeting deleted in between; one connection, one frame each.
    const burst = async () => {
      const client = await rawConnection(participant);
      client.send(
        ...[meetingKey, chatKey, seriesKey].map((key, i) => ({
          type: 1,
          invocationId: String(i + 1),
          target: 'SubscribeToEntity',
          arguments: [key],
        })),
      );
      const done = await completions(client, 3);
      client.close();
      return [done.get('1'), done.get('2'), done.get('3')];
    };
    expect(await burst()).toEqual([null, null, null]);
    const deleted = await api(server.url, `/portal/staff/meetings/${meeting.id}`, {
      method: 'DELETE',
      token: leader,
    });
    expect(deleted.status).toBeLessThan(300);
    expect(await burst()).toEqual(['Forbidden', 'Forbidden', null]);

    // The participant leaves the series (as erasure removes the membership): its events stop too.
    await db
      .deleteFrom('series_memberships')
      .where('account_id', '=', accountId)
      .where('series_id', '=', seriesId)
      .execute();
    expect(await subscribesAfresh(participant, seriesKey)).toBe(false);
  });
});
