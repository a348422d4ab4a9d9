import { HttpTransportType } from '@microsoft/signalr';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { entityKey } from '../../contract/hub.ts';
import { HubKeeper, type HubState } from '../../client-kit/hub/hub-keeper.ts';
import { claimsOf, login, startTestServer, type TestServer } from '../../harness/test-server.ts';
import { ManualClock } from '../worker/helpers.ts';

/**
 * The hub connection the worker and the staff console share, against the real server with a group
 * leader's token. The server's staff audit log writes one row for every SubscribeToEntity a staff
 * member's connection sends, so it counts what reached the server.
 */
let server: TestServer;
let token: string;
let meetingKeys: string[];
const keepers: HubKeeper[] = [];

beforeAll(async () => {
  server = await startTestServer();
  token = (await login(server.url, 'gruppledare', 'gruppledare-losenord', 'portal-staff')).access_token;
  const meetings = await server.ctx.db.selectFrom('meetings').select('id').orderBy('id').execute();
  meetingKeys = meetings.map((m) => entityKey('Meeting', m.id));
});
afterEach(async () => {
  await Promise.all(keepers.splice(0).map((k) => k.stop()));
});
afterAll(async () => server?.dispose());

interface Received {
  name: string;
  key: string;
}

/** A started connection that records its states and events and lets a test wait for either. */
async function connect(clock = new ManualClock()) {
  const states: HubState[] = [];
  const events: Received[] = [];
  const waiters = new Set<() => void>();
  const changed = () => {
    for (const waiter of [...waiters]) waiter();
  };
  const keeper = new HubKeeper({
    signalHubUrl: server.url,
    timer: clock,
    accessToken: async () => token,
    transport: HttpTransportType.WebSockets,
    onState: (state) => {
      states.push(state);
      changed();
    },
    onEvent: (name, _data, key) => {
      events.push({ name, key });
      changed();
    },
  });
  keepers.push(keeper);
  await keeper.start();
  const until = (done: () => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!done()) return;
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
      check();
    });
  return {
    keeper,
    clock,
    states,
    events,
    state: (wanted: HubState) => until(() => states.at(-1) === wanted),
    event: (name: string) => until(() => events.some((e) => e.name === name)),
  };
}

/** How many SubscribeToEntity of this meeting the server has heard from the leader. */
async function subscribeCount(key: string): Promise<number> {
  const id = Number(key.split(':')[1]);
  const rows = await server.ctx.db
    .selectFrom('audit_log')
    .select('id')
    .where('account_id', '=', claimsOf(token).accountId)
    .where('action', '=', 'HUB SubscribeToEntity')
    .where('entity_type', '=', 'Meeting')
    .where('entity_id', '=', id)
    .execute();
  return rows.length;
}

const publish = (key: string, name: string) => server.ctx.hub.publishToEntity(key, name, { key });

describe('entity subscriptions counted per key', () => {
  it('makes one SubscribeToEntity for two subscribers of one key', async () => {
    const [key] = meetingKeys;
    const hub = await connect();
    const before = await subscribeCount(key!);
    expect(await Promise.all([hub.keeper.subscribe(key!), hub.keeper.subscribe(key!)])).toEqual([true, true]);
    // A third holder after the server accepted the key needs no call either.
    expect(await hub.keeper.subscribe(key!)).toBe(true);
    expect((await subscribeCount(key!)) - before).toBe(1);
  });

  it('sends UnsubscribeFromEntity when the last subscriber lets go', async () => {
    const [a, b] = meetingKeys;
    const hub = await connect();
    await hub.keeper.subscribe(a!);
    await hub.keeper.subscribe(a!);
    await hub.keeper.subscribe(b!);

    await hub.keeper.unsubscribe(a!);
    await publish(a!, 'Test.StillHeld');
    await hub.event('Test.StillHeld');

    await hub.keeper.unsubscribe(a!);
    // Events of one connection arrive in order: once b's arrives, a's would have come before it.
    await publish(a!, 'Test.AfterRelease');
    await publish(b!, 'Test.OtherKey');
    await hub.event('Test.OtherKey');
    expect(hub.events.map((e) => e.name)).not.toContain('Test.AfterRelease');
  });

  it('subscribes every held key again after the connection was lost', async () => {
    const [a, b, released] = meetingKeys;
    const hub = await connect();
    await hub.keeper.subscribe(a!);
    await hub.keeper.subscribe(b!);
    await hub.keeper.subscribe(b!);
    await hub.keeper.subscribe(released!);
    await hub.keeper.unsubscribe(released!);
    const before = await Promise.all([a!, b!, released!].map(subscribeCount));

    const closed = hub.state('Disconnected');
    const { jti } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { jti: string };
    await server.ctx.hub.disconnectToken(jti);
    await closed;
    // Started again after the first restart delay, on the injected clock.
    expect(hub.clock.nextAt()).toBe(hub.clock.now() + 2000);
    hub.clock.advance(2000);
    await hub.keeper.start();
    expect(hub.keeper.state).toBe('Connected');

    const after = await Promise.all([a!, b!, released!].map(subscribeCount));
    expect(after.map((n, i) => n - before[i]!)).toEqual([1, 1, 0]);
    await publish(a!, 'Test.A');
    await publish(b!, 'Test.B');
    await hub.event('Test.A');
    await hub.event('Test.B');
  });
});
