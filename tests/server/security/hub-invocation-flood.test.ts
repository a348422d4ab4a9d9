import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import { entityKey } from '../../../contract/hub.ts';
import { HubKeeper } from '../../../client-kit/hub/hub-keeper.ts';
import {
  INVOCATION_BURST,
  INVOCATIONS_PER_SECOND,
  MAX_SUBSCRIPTIONS_PER_CONNECTION,
  REFUSAL_WINDOW_MS,
  THROTTLED_BEFORE_CLOSE,
} from '../../../server/hub/connection.ts';
import { refusedSubscriptionsAction } from '../../../server/staff/audit-log.ts';
import { api, claimsOf, login, startTestServer, type TestServer } from '../../../harness/test-server.ts';
import { readMetrics } from '../../../harness/metrics-text.ts';
import { ManualClock } from '../../worker/helpers.ts';

/**
 * Attack: a flood of hub invocations. A child's connection sent 2,000 SubscribeToEntity in under a
 * second and was answered, each asking the database, and never closed; and a staff connection's
 * refused subscriptions were each written to the audit log, so asking for what it may not see
 * wrote the log full. Now each connection has a budget (INVOCATION_BURST, then
 * INVOCATIONS_PER_SECOND): past it an invocation is answered 'Too many requests.' at once, a
 * connection that keeps on is closed (and its account opens no other here for a minute), and
 * refused subscriptions are counted in /metrics and told in one audit row per connection and
 * window. The budget holds the most subscriptions a connection may have, so a client of ours never
 * meets it: the data worker subscribes every meeting of its list at once, and everything it holds
 * again after a reconnect (HubKeeper, tried here with that many).
 */
let server: TestServer;
const open: HubConnection[] = [];
const keepers: HubKeeper[] = [];

beforeAll(async () => {
  server = await startTestServer({ variant: 'main' });
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.stop()));
  await Promise.all(keepers.splice(0).map((k) => k.stop()));
});
afterAll(async () => server?.dispose());

async function newChild() {
  const username = `flod-${randomUUID().slice(0, 8)}`;
  const password = 'blå-ballong-73';
  const res = await api(server.url, '/portal/api/accounts/registercontact', { body: { username, password } });
  expect(res.status).toBe(201);
  return (await login(server.url, username, password)).access_token;
}

/** The official client on WebSockets, and its close (with the server's reason). */
async function connect(token: string) {
  const connection = new HubConnectionBuilder()
    .withUrl(`${server.url}/hubs/portalaccountevents`, {
      transport: HttpTransportType.WebSockets,
      accessTokenFactory: () => token,
    })
    .configureLogging(LogLevel.None)
    .build();
  open.push(connection);
  const closed = new Promise<Error | undefined>((resolve) => connection.onclose(resolve));
  await connection.start();
  return { connection, closed };
}

/** `n` SubscribeToEntity sent at once; how each one ended. */
async function flood(connection: HubConnection, keyOf: (i: number) => string, n: number) {
  const started = Date.now();
  const outcomes = await Promise.allSettled(
    Array.from({ length: n }, (_, i) => connection.invoke('SubscribeToEntity', keyOf(i))),
  );
  // What was still under way when the server closed the connection is rejected with its close.
  const reasons = outcomes.map((o) =>
    o.status === 'fulfilled'
      ? 'served'
      : /error on close|connection being closed/.test(String(o.reason))
        ? 'cancelled'
        : String(o.reason),
  );
  return {
    seconds: Math.ceil((Date.now() - started) / 1000),
    served: reasons.filter((r) => r === 'served').length,
    forbidden: reasons.filter((r) => r.includes('Forbidden')).length,
    throttled: reasons.filter((r) => r.includes('Too many requests.')).length,
    cancelled: reasons.filter((r) => r === 'cancelled').length,
  };
}

/** The access token's id, by which the hub closes the connections opened with it. */
const jtiOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { jti: string }).jti;

const metric = async (series: string) => (await readMetrics(server.url)).get(series) ?? 0;
const METRICS = [
  'hub_invocations_total{outcome="served"}',
  'hub_invocations_total{outcome="throttled"}',
  'hub_subscriptions_refused_total{reason="forbidden"}',
  'hub_subscriptions_refused_total{reason="throttled"}',
  'hub_connections_closed_flooding_total',
];
async function metricsNow(): Promise<Record<string, number>> {
  return Object.fromEntries(await Promise.all(METRICS.map(async (m) => [m, await metric(m)] as const)));
}
const grown = (before: Record<string, number>, after: Record<string, number>) =>
  Object.fromEntries(METRICS.map((m) => [m, after[m]! - before[m]!]));

/** The staff audit log's rows about hub subscriptions of one account. */
const subscriptionRows = (accountId: number) =>
  server.ctx.db
    .selectFrom('audit_log')
    .select(['action', 'entity_type', 'entity_id', 'status'])
    .where('account_id', '=', accountId)
    .where('action', 'like', 'HUB SubscribeToEntity%')
    .orderBy('id')
    .execute();

describe('a flood of hub invocations', () => {
  it('is throttled past the budget, and the connection that keeps on is closed', async () => {
    const token = await newChild();
    const own = entityKey('Contact', claimsOf(token).contactId);
    const { connection, closed } = await connect(token);
    const before = await metricsNow();

    const burst = await flood(connection, () => own, 2000);
    // Past the budget (and what refilled meanwhile) 'Too many requests.', until the connection had
    // been refused THROTTLED_BEFORE_CLOSE times and was closed; what was still queued then is not
    // run (the client hears it cancelled).
    expect(burst.throttled).toBe(THROTTLED_BEFORE_CLOSE + 1);
    expect(burst.served).toBeLessThanOrEqual(INVOCATION_BURST + INVOCATIONS_PER_SECOND * burst.seconds);
    expect(burst.served + burst.throttled + burst.cancelled).toBe(2000);
    expect(String(await closed)).toContain('Too many requests.');
    const served = await metric('hub_invocations_total{outcome="served"}');
    expect(served - before['hub_invocations_total{outcome="served"}']!).toBeGreaterThanOrEqual(
      INVOCATION_BURST,
    );
    expect(grown(before, await metricsNow())).toEqual({
      'hub_invocations_total{outcome="served"}': served - before['hub_invocations_total{outcome="served"}']!,
      'hub_invocations_total{outcome="throttled"}': THROTTLED_BEFORE_CLOSE + 1,
      'hub_subscriptions_refused_total{reason="forbidden"}': 0,
      'hub_subscriptions_refused_total{reason="throttled"}': THROTTLED_BEFORE_CLOSE + 1,
      hub_connections_closed_flooding_total: 1,
    });
    // Coming straight back would bring a fresh budget: the account opens no connection for a while.
    await expect(connect(token)).rejects.toThrow(/429/);
    // Nobody else is held up by it.
    await expect(connect(await newChild())).resolves.toBeDefined();
  });

  it("writes a staff connection's refused subscriptions in one audit row, not one each", async () => {
    const counsellor = (await login(server.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token;
    const { accountId } = claimsOf(counsellor);
    const rowsBefore = await subscriptionRows(accountId);
    const before = await metricsNow();
    const { connection, closed } = await connect(counsellor);

    // Conversations that are not the counsellor's to follow: every one refused.
    const burst = await flood(connection, (i) => entityKey('Conversation', 900_000 + i), 2000);
    expect(burst.served).toBe(0);
    expect(burst.throttled).toBe(THROTTLED_BEFORE_CLOSE + 1);
    expect(burst.forbidden + burst.throttled + burst.cancelled).toBe(2000);
    expect(String(await closed)).toContain('Too many requests.');
    await server.ctx.hub.settled();

    // One row, of every refusal the client was told of: how many, and the first one's entity.
    const added = (await subscriptionRows(accountId)).slice(rowsBefore.length);
    expect(added).toEqual([
      {
        action: refusedSubscriptionsAction(burst.forbidden + burst.throttled),
        entity_type: 'Conversation',
        entity_id: expect.any(Number),
        status: 403,
      },
    ]);
    expect(added[0]!.entity_id).toBeGreaterThanOrEqual(900_000);
    expect(added[0]!.entity_id).toBeLessThan(902_000);
    expect(grown(before, await metricsNow())).toMatchObject({
      'hub_subscriptions_refused_total{reason="forbidden"}': burst.forbidden,
      'hub_subscriptions_refused_total{reason="throttled"}': THROTTLED_BEFORE_CLOSE + 1,
    });
  });

  it('tells each refusal window in a row of its own, and still writes each allowed subscription', async () => {
    // A server that waits long for a silent client, so the connection outlives the window.
    const patient = await startTestServer({
      variant: 'main',
      build: { hub: { clientTimeoutMs: 10 * 60_000 } },
    });
    try {
      const counsellor = (await login(patient.url, 'kurator', 'kurator-losenord', 'portal-staff'))
        .access_token;
      const { accountId } = claimsOf(counsellor);
      const chat = await api(patient.url, '/portal/chat', {
        token: await (async () => {
          const username = `fonster-${randomUUID().slice(0, 8)}`;
          const body = { username, password: 'blå-ballong-73' };
          expect((await api(patient.url, '/portal/api/accounts/registercontact', { body })).status).toBe(201);
          return (await login(patient.url, username, body.password)).access_token;
        })(),
        body: { subject: 'Chatt', text: '' },
      });
      const queued = entityKey('Conversation', (chat.body as { id: number }).id);
      const connection = new HubConnectionBuilder()
        .withUrl(`${patient.url}/hubs/portalaccountevents`, {
          transport: HttpTransportType.WebSockets,
          accessTokenFactory: () => counsellor,
        })
        .configureLogging(LogLevel.None)
        .build();
      const closed = new Promise<void>((resolve) => connection.onclose(() => resolve()));
      await connection.start();
      const refuse = (id: number) =>
        expect(connection.invoke('SubscribeToEntity', entityKey('Conversation', id))).rejects.toThrow(
          'Forbidden',
        );
      // The queued chat a counsellor may watch: a read, written down as it happens.
      await connection.invoke('SubscribeToEntity', queued);
      for (const id of [910_001, 910_002, 910_003]) await refuse(id);
      // A window later (only Date moves; the server's own clock, so its heartbeat sees it too).
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + REFUSAL_WINDOW_MS + 1000 });
      try {
        for (const id of [910_004, 910_005]) await refuse(id);
        // The server ends the connection (its token revoked): its last window is told at the close,
        // which the client hears after it.
        await patient.ctx.hub.disconnectToken(jtiOf(counsellor));
        await closed;
        await patient.ctx.hub.settled();
      } finally {
        vi.useRealTimers();
      }
      const rows = await patient.ctx.db
        .selectFrom('audit_log')
        .select(['action', 'entity_id', 'status'])
        .where('account_id', '=', accountId)
        .where('action', 'like', 'HUB SubscribeToEntity%')
        .orderBy('id')
        .execute();
      expect(rows).toEqual([
        { action: 'HUB SubscribeToEntity', entity_id: Number(queued.split(':')[1]), status: 200 },
        { action: refusedSubscriptionsAction(3), entity_id: 910_001, status: 403 },
        { action: refusedSubscriptionsAction(2), entity_id: 910_004, status: 403 },
      ]);
    } finally {
      await patient.dispose();
    }
  });
});

describe('a client of ours that holds the most subscriptions a connection may have', () => {
  it('has every one of them accepted at once, and again after a reconnect', async () => {
    const token = (await login(server.url, 'DEMOKOD-0002')).access_token;
    const { contactId } = claimsOf(token);
    // The participant's series holds meetings enough for the limit: the meeting list's cards
    // subscribe each one, and the contact is followed as well.
    const db = server.ctx.db;
    const template = await db
      .selectFrom('meetings')
      .selectAll()
      .where('series_id', '=', 1)
      .executeTakeFirstOrThrow();
    const { id: _, ...row } = template;
    const existing = await db.selectFrom('meetings').select('id').where('series_id', '=', 1).execute();
    const more = MAX_SUBSCRIPTIONS_PER_CONNECTION - 1 - existing.length;
    await db
      .insertInto('meetings')
      .values(Array.from({ length: more }, (_v, i) => ({ ...row, subject: `Träff ${i + 1}` })))
      .execute();
    const meetings = await db
      .selectFrom('meetings')
      .select('id')
      .where('series_id', '=', 1)
      .orderBy('id')
      .execute();
    const keys = [entityKey('Contact', contactId), ...meetings.map((m) => entityKey('Meeting', m.id))];
    expect(keys).toHaveLength(MAX_SUBSCRIPTIONS_PER_CONNECTION);

    const clock = new ManualClock();
    const errors: string[] = [];
    let refused: () => void = () => undefined;
    const firstRefusal = new Promise<'refused'>((resolve) => (refused = () => resolve('refused')));
    const states: string[] = [];
    let stateChanged: () => void = () => undefined;
    const events: string[] = [];
    let heard: () => void = () => undefined;
    const keeper = new HubKeeper({
      signalHubUrl: server.url,
      timer: clock,
      accessToken: async () => token,
      transport: HttpTransportType.WebSockets,
      onState: (state) => {
        states.push(state);
        stateChanged();
      },
      onEvent: (name) => {
        events.push(name);
        heard();
      },
      onError: (message) => {
        if (!/SubscribeToEntity|Re-subscribe/.test(message)) return;
        errors.push(message);
        refused();
      },
    });
    keepers.push(keeper);
    await keeper.start();
    const before = await metricsNow();

    // All at once, as the worker subscribes a meeting list: every one accepted at its first try.
    const all = Promise.all(keys.map((key) => keeper.subscribe(key))).then(() => 'all' as const);
    expect(await Promise.race([all, firstRefusal])).toBe('all');
    expect(await all).toBe('all');

    // The connection is lost; HubKeeper starts again after its first delay and subscribes all again.
    const disconnected = new Promise<void>((resolve) => {
      stateChanged = () => states.at(-1) === 'Disconnected' && resolve();
    });
    await server.ctx.hub.disconnectToken(jtiOf(token));
    await disconnected;
    clock.advance(clock.nextAt()! - clock.now());
    await keeper.start();
    expect(keeper.state).toBe('Connected');
    expect(errors).toEqual([]);
    expect(server.ctx.hub.subscriptionCount()).toBe(MAX_SUBSCRIPTIONS_PER_CONNECTION);
    expect(grown(before, await metricsNow())).toMatchObject({
      'hub_invocations_total{outcome="served"}': 2 * MAX_SUBSCRIPTIONS_PER_CONNECTION,
      'hub_invocations_total{outcome="throttled"}': 0,
    });
    // The last key subscribed again is followed for real.
    const last = keys.at(-1)!;
    const event = new Promise<void>(
      (resolve) => (heard = () => events.includes('Test.AfterReconnect') && resolve()),
    );
    await server.ctx.hub.publishToEntity(last, 'Test.AfterReconnect', {});
    await event;
  });
});
