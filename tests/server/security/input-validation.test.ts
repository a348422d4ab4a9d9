import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpTransportType, HubConnectionBuilder, LogLevel } from '@microsoft/signalr';
import { HUB_METHODS, HUB_PATH } from '../../../contract/hub.ts';
import { API_ERRORS } from '../../../contract/errors.ts';
import { claimsOf, login, startTestServer, type TestServer } from '../../../harness/test-server.ts';
import { captureRoutes, fillTemplate, routeKey, send, type RegisteredRoute } from '../api/route-walk.ts';

/**
 * Attack: malformed input. Identifiers sent as objects answered 500. Every route now declares what
 * it reads in a schema, so such a request is a 400 with a Swedish message before any handler runs.
 * The first test keeps it so: a new route without a schema fails it.
 */

/** Routes that read no body at all (an action on the entity in the path, or the caller alone). */
const NO_BODY = new Set([
  'POST /portal/deleteContact',
  'POST /portal/staff/conversations/:id/accept',
  'POST /portal/staff/conversations/:id/typing',
  'POST /portal/staff/conversations/:id/resolve',
  'POST /portal/staff/meetings/:id/cancel',
  'POST /portal/staff/meetings/:id/start',
  'POST /portal/staff/meetings/:id/end',
  'POST /portal/staff/peers/:kind/:id/approve',
]);
/** GET/DELETE routes that read no query. */
const NO_QUERY = new Set([
  'GET /portal/antiforgery',
  'GET /portal/accounts',
  'GET /portal/chatAccountStatus',
  'GET /portal/contactmessages',
  'GET /portal/features/contacts/:featureId/detail',
  'GET /portal/staff/queue',
  'GET /portal/staff/conversations',
  'GET /portal/staff/conversations/:id/messages',
  'GET /portal/staff/conversations/:id/notes',
  'GET /portal/staff/meetings',
  'GET /portal/staff/meetings/:id/private-messages',
  'GET /portal/staff/meetings/:id/messages',
  'GET /portal/staff/meetings/:id/appendices',
  'GET /portal/staff/meetings/:id/files/:messageId/:fileName',
  'GET /portal/staff/series',
  'DELETE /portal/staff/meetings/:id',
  'GET /portal/api/peers/posts',
  'GET /portal/api/peers/my-posts',
  'GET /portal/api/peers/posts/:id',
  'GET /portal/staff/peers/queue',
  'GET /portal/staff/peers/posts',
  'GET /portal/push/key',
  'DELETE /portal/push/subscriptions',
]);

let barn: TestServer;
let group: TestServer;
/** Peers routes answer 404 elsewhere before validation: they are tried on a Peers server. */
let peers: TestServer;
let routes: RegisteredRoute[];
const tokens: Record<string, string> = {};
beforeAll(async () => {
  const captured = await captureRoutes(async () => [
    await startTestServer(),
    await startTestServer({ variant: 'gruppstod' }),
    await startTestServer({ variant: 'peers' }),
  ]);
  [barn, group, peers] = captured.result as [TestServer, TestServer, TestServer];
  routes = [...new Map(captured.routes.map((r) => [routeKey(r), r])).values()];
  tokens.child = (await login(barn.url, 'demo', 'demo-losenord')).access_token;
  tokens.participant = (await login(group.url, 'DEMOKOD-0001')).access_token;
  tokens.counsellor = (await login(barn.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token;
  tokens.leader = (
    await login(group.url, 'gruppledare', 'gruppledare-losenord', 'portal-staff')
  ).access_token;
  tokens.admin = (await login(barn.url, 'admin', 'admin-losenord', 'portal-staff')).access_token;
  tokens.peersCounsellor = (
    await login(peers.url, 'kurator', 'kurator-losenord', 'portal-staff')
  ).access_token;
  await send(
    peers.url,
    'POST',
    {
      path: '/portal/api/accounts/registercontact',
      json: { username: 'ung-validering', password: PASSWORD },
    },
    undefined,
    'Peers',
  );
  tokens.peersChild = (await login(peers.url, 'ung-validering', PASSWORD)).access_token;
});
afterAll(async () => {
  await barn?.dispose();
  await group?.dispose();
  await peers?.dispose();
});

const apiRoute = (r: RegisteredRoute) => r.url.startsWith('/portal/') || r.url.startsWith('/connect/');
const writes = (method: string) => method === 'POST' || method === 'PUT' || method === 'PATCH';

const PASSWORD = 'Grön-Tekanna-7';

/** Registers a child account on the child app, as the app does it: no token. */
const registerChild = (username: string, properties: Record<string, string> = {}) =>
  send(
    barn.url,
    'POST',
    { path: '/portal/api/accounts/registercontact', json: { username, password: PASSWORD, properties } },
    undefined,
    'Barn',
  );

/** The caller whose token passes the route's authentication, so validation is what is tested. */
function callerOf(url: string): { server: TestServer; token: string; variant: string } {
  if (url.startsWith('/portal/staff/peers'))
    return { server: peers, token: tokens.peersCounsellor!, variant: 'Peers' };
  if (url.startsWith('/portal/api/peers'))
    return { server: peers, token: tokens.peersChild!, variant: 'Peers' };
  if (url.startsWith('/portal/staff/conversations') || url === '/portal/staff/queue')
    return { server: barn, token: tokens.counsellor!, variant: 'Barn' };
  if (url.startsWith('/portal/staff/audit') || url.startsWith('/portal/staff/accounts'))
    return { server: barn, token: tokens.admin!, variant: 'Barn' };
  if (url.startsWith('/portal/staff/')) return { server: group, token: tokens.leader!, variant: 'Gruppstod' };
  if (url.includes('meeting')) return { server: group, token: tokens.participant!, variant: 'Gruppstod' };
  return { server: barn, token: tokens.child!, variant: 'Barn' };
}

describe('input validation', () => {
  it('has a schema for everything each API route reads', () => {
    const missing: string[] = [];
    for (const r of routes.filter(apiRoute)) {
      const key = routeKey(r);
      const schema = r.schema ?? {};
      if (r.url.includes(':') && !schema.params) missing.push(`${key}: params`);
      if (writes(r.method) && !NO_BODY.has(key) && !schema.body) missing.push(`${key}: body`);
      if (!writes(r.method) && !NO_QUERY.has(key) && !schema.querystring && !r.url.startsWith('/connect/'))
        missing.push(`${key}: querystring`);
    }
    expect(missing).toEqual([]);
  });

  it('answers 400 with a Swedish message, never 500, to objects where values belong', async () => {
    const failures: string[] = [];
    for (const r of routes.filter((x) => x.url.startsWith('/portal/') && writes(x.method))) {
      const body = (r.schema?.body as { properties?: Record<string, unknown> } | undefined)?.properties;
      if (!body) continue;
      const { server, token, variant } = callerOf(r.url);
      const path = fillTemplate(r.url, {
        id: 1,
        kind: 'posts',
        messageId: 1,
        fileName: 'x.pdf',
        featureId: 'contactsapplicationfeature-id',
        appId: 'conversationsapplication-id',
      });
      for (const field of Object.keys(body)) {
        if (field === 'file' || field === 'DocumentContent') continue;
        // An object where a value belongs; where a map belongs, an object inside it.
        const isMap = (body[field] as { type?: string }).type === 'object';
        const wrong = isMap ? { x: { $gt: '' } } : { $gt: '' };
        const json = { ...Object.fromEntries(Object.keys(body).map((k) => [k, 1])), [field]: wrong };
        const answer = await send(server.url, r.method, { path, json }, token, variant);
        const parsed = JSON.parse(answer.body || '{}') as { message?: string };
        if (answer.status !== 400 || parsed.message !== API_ERRORS.validation.message) {
          if (!(r.url.includes('meetingmessage') || r.url.includes('appendices')) || answer.status >= 500)
            failures.push(`${routeKey(r)} ${field}: ${answer.status} ${answer.body.slice(0, 120)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers 400 to a path id that is no number, and to an id given twice in a query', async () => {
    const { server, token } = callerOf('/portal/staff/conversations');
    const path = await send(
      server.url,
      'POST',
      { path: '/portal/staff/conversations/abc/accept', json: {} },
      token,
      'Barn',
    );
    expect(path.status).toBe(400);
    const child = callerOf('/portal/features/conversations');
    const twice = await send(
      child.server.url,
      'GET',
      {
        path: '/portal/features/conversations/conversationsapplication-id/messages?conversation=1&conversation=2',
      },
      child.token,
      'Barn',
    );
    expect(twice.status).toBe(400);
    const huge = await send(
      child.server.url,
      'POST',
      { path: '/portal/conversationmessage', json: { conversation: 1, content: 'x'.repeat(5000) } },
      child.token,
      'Barn',
    );
    expect(huge.status).toBe(400);
  });
});

describe('text no database can store', () => {
  it('a NUL character anywhere is a 400, never a 500', async () => {
    const child = callerOf('/portal/mail');
    const mail = await send(
      child.server.url,
      'POST',
      { path: '/portal/mail', json: { text: 'x\u0000y' } },
      child.token,
      'Barn',
    );
    expect(mail.status).toBe(400);
    const property = await registerChild('nulbarn', { device: 'a\u0000' });
    expect(property.status).toBe(400);
    const token = await send(
      barn.url,
      'POST',
      {
        path: '/connect/token',
        urlencoded: {
          grant_type: 'password',
          client_id: 'portal-web',
          username: 'de\u0000mo',
          password: 'x',
        },
      },
      undefined,
      null,
    );
    expect(token.status).toBe(400);
    expect(JSON.parse(token.body)).toMatchObject({ error: 'invalid_request' });
  });
});

describe('the same thing twice at once', () => {
  it('registers a username once; the others hear it is taken', async () => {
    const answers = await Promise.all(Array.from({ length: 4 }, () => registerChild('tvillingbarn')));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409]);
  });

  it('opens one chat for a child starting one on two devices at once', async () => {
    const register = await registerChild('tvachattar');
    expect(register.status).toBe(201);
    const token = (await login(barn.url, 'tvachattar', PASSWORD)).access_token;
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        send(barn.url, 'POST', { path: '/portal/chat', json: { text: 'Hej' } }, token, 'Barn'),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(4);
  });

  it('takes one Idempotency-Key for one request only: the same key for another meeting is refused', async () => {
    const headers = { 'Idempotency-Key': 'samma-nyckel-12345' };
    const leader = callerOf('/portal/staff/meetings');
    const post = (meeting: number) =>
      fetch(`${leader.server.url}/portal/staff/meetings/${meeting}/messages`, {
        method: 'POST',
        headers: {
          ...headers,
          Authorization: `Bearer ${leader.token}`,
          'Content-Type': 'application/json',
          'X-App-Variant': 'Gruppstod',
        },
        body: JSON.stringify({ content: 'Hej gruppen' }),
      });
    const meetings = (await (
      await fetch(`${leader.server.url}/portal/staff/meetings`, {
        headers: { Authorization: `Bearer ${leader.token}` },
      })
    ).json()) as {
      value: Array<{ id: number; state: string }>;
    };
    const running = meetings.value.find((m) => m.state === 'InProgress')!;
    await fetch(`${leader.server.url}/portal/staff/meetings/${running.id}/start`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${leader.token}` },
    });
    expect((await post(running.id)).status).toBe(201);
    const other = meetings.value.find((m) => m.id !== running.id)!;
    expect((await post(other.id)).status).toBe(422);
  });
});

describe('hub invocations with malformed arguments', () => {
  it('answer each with a completion error, never a crash or a close, and the connection goes on', async () => {
    const connection = new HubConnectionBuilder()
      .withUrl(`${barn.url}${HUB_PATH}`, {
        transport: HttpTransportType.WebSockets,
        accessTokenFactory: () => tokens.child!,
      })
      .configureLogging(LogLevel.None)
      .build();
    let closed = false;
    connection.onclose(() => (closed = true));
    await connection.start();
    try {
      const expects = "'SubscribeToEntity' expects a non-empty entity key.";
      const count = (n: number, target: string) =>
        `Invocation provides ${n} argument(s) but target '${target}' expects 1.`;
      const cases: Array<[string, unknown[], string]> = [
        [HUB_METHODS.subscribe, [], count(0, HUB_METHODS.subscribe)],
        [HUB_METHODS.subscribe, ['Contact:1', 'Contact:2'], count(2, HUB_METHODS.subscribe)],
        [HUB_METHODS.subscribe, [{ $gt: '' }], expects],
        [HUB_METHODS.subscribe, [['Contact:1']], expects],
        [HUB_METHODS.subscribe, [42], expects],
        [HUB_METHODS.subscribe, [null], expects],
        [HUB_METHODS.subscribe, [''], expects],
        [HUB_METHODS.subscribe, ['x'.repeat(257)], expects],
        // A key of no entity: nobody's to follow.
        [HUB_METHODS.subscribe, ['Contact:1:2\u0000'], 'Forbidden'],
        [HUB_METHODS.unsubscribe, [{ $gt: '' }], "'UnsubscribeFromEntity' expects a non-empty entity key."],
        [HUB_METHODS.unsubscribe, [], count(0, HUB_METHODS.unsubscribe)],
        ['NoSuchMethod', [1], "Unknown hub method 'NoSuchMethod'"],
      ];
      const failures: string[] = [];
      for (const [target, args, wanted] of cases) {
        const answer = await connection.invoke(target, ...args).then(
          () => 'served',
          (error: unknown) => (error instanceof Error ? error.message : String(error)),
        );
        if (answer !== wanted) failures.push(`${target}(${JSON.stringify(args)}): ${answer}`);
      }
      // SendMessage reads nothing (kept for old clients): whatever it is given, it answers null.
      expect(await connection.invoke(HUB_METHODS.sendMessage, { $gt: '' }, [1], null)).toBeNull();
      // A stream of a method is no invocation the hub serves.
      const streamed = await new Promise<string>((resolve) => {
        connection.stream(HUB_METHODS.subscribe, 'Contact:1').subscribe({
          next: () => resolve('item'),
          complete: () => resolve('complete'),
          error: (error: unknown) => resolve(String(error)),
        });
      });
      expect(streamed).toContain('Streaming is not supported.');
      expect(failures).toEqual([]);
      // Still connected, and a well-formed subscription is served.
      expect(closed).toBe(false);
      const own = `Contact:${claimsOf(tokens.child!).contactId}`;
      await expect(connection.invoke(HUB_METHODS.subscribe, own)).resolves.toBeNull();
    } finally {
      await connection.stop();
    }
  });
});
