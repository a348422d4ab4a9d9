import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACTS_FEATURE_IDS } from '../../contract/profile.ts';
import { startFaultProxy, type FaultProxy } from '../../harness/fault-proxy.ts';
import { outcomeOf } from '../../worker/base/result.ts';
import { api, login } from '../../harness/test-server.ts';
import { useCounsellorTestEnv } from './child-helpers.ts';
import { signedInWorker } from './group/group-helpers.ts';
import { waitForQuery } from './helpers.ts';

/**
 * SPEC §2: my pages' logo clears its cached data (the worker's clearMyPagesCache). The notifications
 * and contact messages live in the database for offline reading, so clearing fetches them again:
 * what the server no longer has goes, and offline the copy stays.
 */
const env = useCounsellorTestEnv();
const CONTACTS = `/portal/features/contacts/${CONTACTS_FEATURE_IDS.main}`;

let proxy: FaultProxy;
beforeAll(async () => {
  proxy = await startFaultProxy({ target: env.server.url });
});
afterAll(async () => proxy?.close());

describe("clearing my pages' cache", () => {
  it('fetches notifications and contact messages again, and keeps the copy offline', async () => {
    // The demo child behind the proxy, so the test can take the network away.
    const fixture = await signedInWorker(env.server, 'demo', 'demo-losenord', { origin: proxy.origin });
    env.fixtures.push(fixture);
    const { worker, db } = fixture;
    // Another device of the child's: it changes things on the server, which tells this worker nothing.
    const token = (await login(env.server.url, 'demo', 'demo-losenord')).access_token;

    // A mail answered by the counsellor: a notification, which the hub event brings into the list.
    const mail = await api(env.server.url, '/portal/mail', {
      token,
      body: { subject: 'Mina sidor', text: 'Hej, jag undrar en sak.' },
    });
    expect(mail.status).toBe(200);
    const conversationId = (mail.body as { id: number }).id;
    const answer = await api(env.server.url, `/portal/staff/conversations/${conversationId}/messages`, {
      token: env.counsellor,
      body: { content: 'Hej! Här är ett svar.' },
    });
    expect(answer.status).toBe(201);
    const [notification] = await waitForQuery(
      () => db.notifications.toArray(),
      (rows) => rows.some((n) => n.entity === `Conversation:${conversationId}`),
    );
    expect(outcomeOf(await worker.commands.loadContactMessages())).toBe('ok');
    const [message] = await db.contactMessages.toArray();
    expect(message).toMatchObject({ IsRead: false, Subject: 'Välkommen till Stödlinjen' });

    // Elsewhere: the notification deleted, the contact message read. The cache still has them as were.
    const deleted = await api(env.server.url, '/portal/api/notifications/delete', {
      token,
      body: { NotificationId: notification!.id },
    });
    expect(deleted.status).toBe(200);
    const read = await api(env.server.url, `${CONTACTS}/processmessage/`, {
      token,
      body: { Id: message!.Id },
    });
    expect(read.status).toBe(200);
    expect(await db.notifications.get(notification!.id)).toBeDefined();
    expect((await db.contactMessages.get(message!.Id))?.IsRead).toBe(false);

    expect(outcomeOf(await worker.commands.clearMyPagesCache())).toBe('ok');
    expect(await db.notifications.get(notification!.id)).toBeUndefined();
    expect((await db.contactMessages.get(message!.Id))?.IsRead).toBe(true);

    // Deleted elsewhere while this device is offline: clearing then removes nothing.
    const removed = await api(env.server.url, `${CONTACTS}/deletemessage/`, {
      token,
      body: { Id: message!.Id },
    });
    expect(removed.status).toBe(200);
    proxy.offline();
    try {
      expect(outcomeOf(await worker.commands.clearMyPagesCache())).toBe('ok');
      expect(await db.contactMessages.get(message!.Id)).toMatchObject({ IsRead: true });
    } finally {
      proxy.online();
    }
  });
});
