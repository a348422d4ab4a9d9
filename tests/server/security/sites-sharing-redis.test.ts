import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpTransportType, type HubConnection } from '@microsoft/signalr';
import { buildClient } from '../hub/helpers.ts';
import { HUB_PATH } from '../../../contract/hub.ts';
import { sendEventFrameText } from '../../../server/hub/protocol.ts';
import { siteChannel, siteOf } from '../../../server/hub/site.ts';
import { api, login, type TestServer } from '../../../harness/test-server.ts';
import { startTarget } from '../../../harness/attack.ts';

/**
 * Attack: two sites run on one Redis (a shared server, `redis://host/1` and `redis://host/2`: pub/sub
 * ignores the database number). The backplane published every event on one fixed channel, so a child
 * of site B heard site A's child's events live on its own hub connection, their ids being the same
 * (both sites seeded alike), and a password change at A closed B's account of the same id. Each site
 * now has its own channel and every frame names its site; a foreign frame is dropped.
 */
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
let siteA: TestServer;
let siteB: TestServer;
const connections: HubConnection[] = [];
beforeAll(async () => {
  // No channel prefix or anything else set apart by the test: what keeps them apart is the site's own.
  siteA = await startTarget({ config: { redisUrl: REDIS_URL } });
  siteB = await startTarget({ config: { redisUrl: REDIS_URL } });
});
afterAll(async () => {
  await Promise.all(connections.splice(0).map((c) => c.stop()));
  await siteA?.dispose();
  await siteB?.dispose();
});

const CONTACT_DETAIL = '/portal/features/contacts/contactsapplicationfeature-id/detail';
const CONTACT_UPDATE = '/portal/features/contacts/contactsapplicationfeature-id/update';

/** The demo child at `site`: signed in, on the hub, subscribed to its own contact, every event kept. */
async function demoChildAt(site: TestServer) {
  const { access_token: token } = await login(site.url, 'demo', 'demo-losenord');
  const detail = await api(site.url, CONTACT_DETAIL, { token });
  const contactId = (detail.body as { info: { contact: { id: number } } }).info.contact.id;
  const connection = buildClient(`${site.url}${HUB_PATH}`, token, HttpTransportType.WebSockets);
  connections.push(connection);
  const events: { name: string; data: unknown; key: string }[] = [];
  const waiting: { name: string; resolve: () => void }[] = [];
  connection.on('SendEvent', (eventName: string, data: unknown, key: string) => {
    events.push({ name: eventName, data, key });
    for (const w of waiting.filter((w) => w.name === eventName)) w.resolve();
  });
  /** Resolves once an event of this name has arrived. */
  const heard = (name: string) =>
    events.some((e) => e.name === name)
      ? Promise.resolve()
      : new Promise<void>((resolve) => waiting.push({ name, resolve }));
  const closed = new Promise<void>((resolve) => connection.onclose(() => resolve()));
  await connection.start();
  await connection.invoke('SubscribeToEntity', `Contact:${contactId}`);
  return { token, contactId, connection, events, closed, heard };
}

describe('two sites sharing one Redis', () => {
  it("each child hears only its own site's events, and another site's password change closes nothing", async () => {
    const a = await demoChildAt(siteA);
    const b = await demoChildAt(siteB);
    // Both sites were seeded alike: the same contact id means another child at each.
    expect(a.contactId).toBe(b.contactId);
    const key = `Contact:${b.contactId}`;
    /** An event of site B's own, after which B has heard all it will of what came before. */
    const markB = async (name: string) => {
      await siteB.ctx.hub.publishToEntity(key, name, null);
      await b.heard(name);
    };

    expect((await api(siteA.url, CONTACT_UPDATE, { token: a.token, body: { name: 'Plats A' } })).status).toBe(
      200,
    );
    await a.heard('Contact.Updated');
    // On one shared channel A's event would have reached B before B's own (Redis keeps order).
    await markB('SiteB.First');
    expect(b.events.map((e) => e.name)).toEqual(['SiteB.First']);

    // A password change at A ends A's account of that id everywhere in site A, nowhere else.
    const changed = await api(siteA.url, '/portal/api/accounts/changePassword', {
      token: a.token,
      body: { oldPassword: 'demo-losenord', password: 'Nytt-Blått-Lösen-42' },
    });
    expect(changed.status).toBe(200);
    await a.closed;
    await markB('SiteB.Second');
    expect(b.events.map((e) => e.name)).toEqual(['SiteB.First', 'SiteB.Second']);
    expect(b.connection.state).toBe('Connected');
    expect((await api(siteB.url, CONTACT_DETAIL, { token: b.token })).status).toBe(200);
  });

  it("drops a frame on the site's own channel that names another site", async () => {
    const b = await demoChildAt(siteB);
    const channel = siteChannel(await siteOf(siteB.ctx.db, siteB.ctx.config.publicOrigin));
    const frame = (name: string) => sendEventFrameText(name, null, `Contact:${b.contactId}`);
    const publisher = new Redis(REDIS_URL);
    try {
      const published = (site: string | undefined, name: string) =>
        publisher.publish(
          channel,
          JSON.stringify({ kind: 'entity', entityKey: `Contact:${b.contactId}`, frame: frame(name), site }),
        );
      await published('another-site', 'Foreign');
      await published(undefined, 'Unnamed');
      await published(await siteOf(siteB.ctx.db, siteB.ctx.config.publicOrigin), 'Own');
      await b.heard('Own');
      expect(b.events.map((e) => e.name)).toEqual(['Own']);
      expect(b.connection.state).toBe('Connected');
    } finally {
      publisher.disconnect();
    }
  });
});
