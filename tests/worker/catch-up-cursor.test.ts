import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationMessageWire } from '../../contract/conversations.ts';
import { startFaultProxy, type FaultProxy } from '../../harness/fault-proxy.ts';
import { api } from '../../harness/test-server.ts';
import { MAIL_DEVICE, useCounsellorTestEnv } from './child-helpers.ts';
import { signedInWorker } from './group/group-helpers.ts';
import { valueOf, waitForQuery } from './helpers.ts';
import type { WorkerFixture } from './worker-fixture.ts';

/**
 * Catch-up by cursor (docs/decisions.md): back online, an open conversation's messages are asked
 * with `since` = the newest message of the last complete list, and merged by id; a message a hub
 * event stored meanwhile does not move the cursor past what the outage hid.
 */
const env = useCounsellorTestEnv();
const PASSWORD = 'blå-ballong-73';
/** The message list of a conversation, with or without the cursor. */
const MESSAGES = /^\/portal\/features\/conversations\/[^/]+\/messages\?/;
const WHOLE_LIST = /^\/portal\/features\/conversations\/[^/]+\/messages\?(?!.*since=)/;

let proxy: FaultProxy;
beforeAll(async () => {
  proxy = await startFaultProxy({ target: env.server.url });
});
afterEach(() => {
  proxy.clearRules();
  proxy.online();
});
afterAll(async () => proxy?.close());

let children = 0;
/** A signed-in child's worker behind the proxy, and every message-list URL it asked for. */
async function child(): Promise<{ fixture: WorkerFixture; listed: URL[] }> {
  const username = `markorbarn-${process.pid}-${++children}`;
  const registered = await api(env.server.url, '/portal/api/accounts/registercontact', {
    body: { username, password: PASSWORD, properties: { birthYear: '2011', gender: 'female' } },
  });
  expect(registered.status).toBe(201);
  const listed: URL[] = [];
  const fixture = await signedInWorker(env.server, username, PASSWORD, {
    origin: proxy.origin,
    fetch: (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (MESSAGES.test(url.pathname + url.search)) listed.push(url);
      return fetch(input, init);
    },
  });
  env.fixtures.push(fixture);
  return { fixture, listed };
}

const staff = (path: string, body?: unknown) =>
  api(env.server.url, `/portal/staff${path}`, { token: env.counsellor, ...(body ? { body } : {}) });

const serverMessages = async (conversationId: number) =>
  ((await staff(`/conversations/${conversationId}/messages`)).body as { value: ConversationMessageWire[] })
    .value;

const stored = (fixture: WorkerFixture, conversationId: number) =>
  fixture.db.chatMessages.where('conversation').equals(conversationId).toArray();

async function openThread(fixture: WorkerFixture, subject: string): Promise<number> {
  const sent = valueOf(await fixture.worker.commands.sendMail(subject, `${subject}: första`, MAIL_DEVICE));
  if (sent.status !== 'sent') throw new Error(`mail not sent: ${sent.status}`);
  valueOf(await fixture.worker.commands.openConversation(sent.conversationId));
  return sent.conversationId;
}

const hubState = (fixture: WorkerFixture, connected: boolean) =>
  waitForQuery(
    () => fixture.db.runtime.get('current'),
    (row) => (row?.hubState === 'Connected') === connected,
  );

describe('catch-up by cursor', () => {
  it('asks for what came after the last complete list and merges it without duplicates or gaps', async () => {
    const { fixture, listed } = await child();
    const id = await openThread(fixture, 'Markören');
    expect((await staff(`/conversations/${id}/messages`, { content: 'Före avbrottet' })).status).toBe(201);
    await waitForQuery(
      () => stored(fixture, id),
      (rows) => rows.some((m) => m.message === 'Före avbrottet'),
    );
    // A complete list that ends with 'Före avbrottet': the cursor the catch-up must go on from.
    valueOf(await fixture.worker.commands.openConversation(id));
    const cursor = (await serverMessages(id)).at(-1)!;
    expect(cursor.message).toBe('Före avbrottet');
    await hubState(fixture, true);

    proxy.offline();
    await hubState(fixture, false);
    await staff(`/conversations/${id}/messages`, { content: 'Under avbrottet 1' });
    await staff(`/conversations/${id}/messages`, { content: 'Under avbrottet 2' });
    valueOf(await fixture.worker.commands.replyToConversation(id, 'Barnets svar offline'));

    // Back, but every message list fails: the hub and the outbox come back, the lists do not.
    const noLists = proxy.addRule({ method: 'GET', path: MESSAGES, action: 'status', status: 503 });
    proxy.online();
    await fixture.worker.onOnline(true);
    await hubState(fixture, true);
    await staff(`/conversations/${id}/messages`, { content: 'Efter avbrottet' });
    // The hub event's message is stored at once: it is newer than everything the outage hid.
    const before = await waitForQuery(
      () => stored(fixture, id),
      (rows) =>
        rows.some((m) => m.message === 'Efter avbrottet') &&
        rows.some((m) => m.message === 'Barnets svar offline' && m.id !== null),
    );
    expect(before.map((m) => m.message)).not.toContain('Under avbrottet 1');

    // Only lists with the cursor get through now: a whole list could hide a cursor that was not used.
    noLists.remove();
    const wholeLists = proxy.addRule({ method: 'GET', path: WHOLE_LIST, action: 'status', status: 503 });
    listed.length = 0;
    await fixture.worker.catchUp();

    const asked = listed.map((url) => url.searchParams.get('since'));
    expect(asked).toContain(String(cursor.id));
    expect(asked.every((since) => since !== null && Number(since) <= cursor.id)).toBe(true);
    const expected = await serverMessages(id);
    const rows = await stored(fixture, id);
    expect(rows.map((m) => m.id).sort((a, b) => a! - b!)).toEqual(
      expected.map((m) => m.id).sort((a, b) => a - b),
    );
    expect(rows.map((m) => m.message).sort()).toEqual(expected.map((m) => m.message).sort());
    expect(new Set(rows.map((m) => m.message)).size).toBe(rows.length);
    // The child's own reply kept its clientId through the merge.
    expect(rows.find((m) => m.message === 'Barnets svar offline')?.clientId).toBeTruthy();
    expect(wholeLists.hits).toBe(0);
  });

  it('falls back to the whole list when it no longer holds the newest message of the last one', async () => {
    const { fixture, listed } = await child();
    const id = await openThread(fixture, 'Utan markör');
    await staff(`/conversations/${id}/messages`, { content: 'Svar' });
    valueOf(await fixture.worker.commands.openConversation(id));
    const newest = (await serverMessages(id)).at(-1)!;
    await fixture.db.chatMessages.delete(String(newest.id));

    listed.length = 0;
    await fixture.worker.catchUp();
    expect(listed.some((url) => !url.searchParams.has('since'))).toBe(true);
    expect(listed.some((url) => url.searchParams.has('since'))).toBe(false);
    expect((await stored(fixture, id)).map((m) => m.id)).toEqual((await serverMessages(id)).map((m) => m.id));
  });
});
