import 'fake-indexeddb/auto';
import { HttpTransportType } from '@microsoft/signalr';
import { describe, expect, it } from 'vitest';
import { HubClient } from '../../../worker/hub/hub-client.ts';
import { api, login } from '../../../harness/test-server.ts';
import { ManualClock, waitForQuery } from '../helpers.ts';
import { createWorker, useWorkerTestServer } from '../worker-fixture.ts';

const env = useWorkerTestServer();

const UPDATE = '/portal/features/contacts/contactsapplicationfeature-id/update';

describe.each([
  ['WebSockets', HttpTransportType.WebSockets],
  ['LongPolling', HttpTransportType.LongPolling],
])('hub events into Dexie over %s', (_name, transport) => {
  it('refetches the profile into Dexie when Contact.Updated arrives', async () => {
    const fixture = await createWorker(env.server, { transport });
    env.fixtures.push(fixture);
    const { worker, db } = fixture;
    await worker.start(true);
    await worker.login('demo', 'demo-losenord');
    const profile = (await db.profile.get('current'))!;
    expect(await worker.subscribe(`Contact:${profile.contactId}`)).toBe(true);

    // The change comes from elsewhere (another device of the same user), not from this worker.
    const other = await login(env.server.url, 'demo', 'demo-losenord');
    const name = `Demo ${transport} ${Date.now()}`;
    expect((await api(env.server.url, UPDATE, { token: other.access_token, body: { name } })).status).toBe(
      200,
    );

    const updated = await waitForQuery(
      () => db.profile.get('current'),
      (row) => row?.username === name,
    );
    expect(updated?.contactId).toBe(profile.contactId);
  });
});

describe('hub client', () => {
  it('tries SubscribeToEntity 3 times, 1.5 s apart, and gives up on a refused entity', async () => {
    const { access_token } = await login(env.server.url, 'demo', 'demo-losenord');
    const clock = new ManualClock();
    const errors: string[] = [];
    const states: string[] = [];
    const hub = new HubClient({
      signalHubUrl: env.server.url,
      clock,
      accessToken: async () => access_token,
      onState: (s) => states.push(s),
      onEvent: () => undefined,
      onError: (m) => errors.push(m),
    });
    await hub.start();
    expect(states).toEqual(['Connecting', 'Connected']);
    let result: boolean | undefined;
    const subscribing = hub.subscribe('Meeting:999999').then((r) => (result = r));
    const waits: number[] = [];
    while (result === undefined) {
      // Each failed try waits on the clock: advance exactly to that timer once it is set.
      await new Promise((r) => setImmediate(r));
      const at = clock.nextAt();
      if (at === null) continue;
      waits.push(at - clock.now());
      clock.advance(at - clock.now());
    }
    await subscribing;
    expect(result).toBe(false);
    expect(waits).toEqual([1500, 1500]);
    expect(errors.filter((e) => e.startsWith('SubscribeToEntity'))).toHaveLength(3);
    await hub.stop();
    expect(hub.state).toBe('Disconnected');
  });
});

describe('hub client after the server drops the connection', () => {
  it('starts again after close and re-subscribes its entities', async () => {
    const { access_token } = await login(env.server.url, 'demo', 'demo-losenord');
    const detail = await api(
      env.server.url,
      '/portal/features/contacts/contactsapplicationfeature-id/detail',
      {
        token: access_token,
      },
    );
    const contactId = (detail.body as { info: { contact: { id: number } } }).info.contact.id;
    const clock = new ManualClock();
    const states: string[] = [];
    const events: Array<{ name: string; key: string }> = [];
    let stateChanged: () => void = () => undefined;
    let eventArrived: () => void = () => undefined;
    const hub = new HubClient({
      signalHubUrl: env.server.url,
      clock,
      accessToken: async () => access_token,
      onState: (s) => {
        states.push(s);
        stateChanged();
      },
      onEvent: (name, _data, key) => {
        events.push({ name, key });
        eventArrived();
      },
    });
    const nextState = (wanted: string) =>
      new Promise<void>((resolve) => {
        stateChanged = () => {
          if (states.at(-1) === wanted) resolve();
        };
      });
    await hub.start();
    expect(await hub.subscribe(`Contact:${contactId}`)).toBe(true);

    const closed = nextState('Disconnected');
    const jti = JSON.parse(Buffer.from(access_token.split('.')[1]!, 'base64url').toString()).jti as string;
    await env.server.ctx.hub.disconnectToken(jti);
    await closed;
    const connected = nextState('Connected');
    expect(clock.nextAt()).toBe(clock.now() + 2000);
    clock.advance(2000);
    await connected;
    // The restart is still re-subscribing: start() joins it and returns once that is done.
    await hub.start();

    const received = new Promise<void>((resolve) => (eventArrived = resolve));
    await api(env.server.url, UPDATE, { token: access_token, body: { name: 'Solen' } });
    await received;
    expect(events).toContainEqual({ name: 'Contact.Updated', key: `Contact:${contactId}` });
    await hub.stop();
  });
});
