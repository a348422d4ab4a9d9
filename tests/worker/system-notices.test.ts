import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import type { ConversationMessageWire } from '../../contract/conversations.ts';
import type { WorkerBroadcast } from '../../worker/client/api.ts';
import { api } from '../../harness/test-server.ts';
import { MAIL_DEVICE, useCounsellorTestEnv } from './child-helpers.ts';
import { signedInWorker } from './group/group-helpers.ts';
import { uniqueName, valueOf, waitForQuery } from './helpers.ts';
import { pushWanted } from '../../worker/client/push-wanted.ts';
import type { WorkerFixture } from './worker-fixture.ts';

/**
 * System notifications: the real worker core hears the real server's hub events and asks one tab to
 * show a notice, always in the same neutral words, with the place a click leads to.
 */
const env = useCounsellorTestEnv();
const PASSWORD = 'blå-ballong-73';

async function child() {
  const username = uniqueName('notis').slice(0, 30).toLowerCase();
  const res = await api(env.server.url, '/portal/api/accounts/registercontact', {
    body: { username, password: PASSWORD, properties: { birthYear: '2012', gender: 'female' } },
  });
  expect(res.status).toBe(201);
  const fixture = await signedInWorker(env.server, username, PASSWORD);
  env.fixtures.push(fixture);
  return fixture;
}

/** A stored profile row of another child (as a sign-in on this browser would write it). */
const profileOf = (contactId: number) => ({
  id: 'current' as const,
  username: '',
  loginName: null,
  contactId,
  properties: {},
  createdAt: new Date(0).toISOString(),
});

const staff = (path: string, body: unknown) =>
  api(env.server.url, `/portal/staff${path}`, { token: env.counsellor, body });

type Notice = Extract<WorkerBroadcast, { type: 'system-notice' }>;
const noticesOf = (fixture: WorkerFixture) =>
  fixture.broadcasts.filter((b): b is Notice => b.type === 'system-notice');

/** The child's chat, as the worker stores it, once `predicate` holds (the hub event was handled). */
const chatRow = (fixture: WorkerFixture, id: number, predicate: (lastAgent: string | null) => boolean) =>
  waitForQuery(
    () => fixture.db.conversations.get(id),
    (row) => row !== undefined && predicate(row.lastAgentMessageDate),
  );

describe('system notices', () => {
  it('tell of the counsellor joining, and of a counsellor message only while no tab shows the chat', async () => {
    const fixture = await child();
    const { commands } = fixture.worker;
    await commands.tabVisibility('tab-hidden', false);
    await commands.tabVisibility('tab-visible', true);
    await commands.chatInView('tab-visible', true);
    const id = valueOf(await commands.startChat(null, { ...MAIL_DEVICE }));

    expect((await staff(`/conversations/${id}/accept`, {})).status).toBe(200);
    await vi.waitFor(() => expect(noticesOf(fixture)).toHaveLength(1));
    // Addressed to the visible tab: it is there to show it.
    expect(noticesOf(fixture)[0]).toEqual({
      type: 'system-notice',
      tabId: 'tab-visible',
      notice: { title: 'Du har ett nytt meddelande', tag: `conversation-${id}`, url: '/start#chatt' },
    });

    // A tab shows the counsellor's message itself: no notice.
    const first = (await staff(`/conversations/${id}/messages`, { content: 'Hej, jag heter Kim.' }))
      .body as unknown as ConversationMessageWire;
    await chatRow(fixture, id, (lastAgent) => lastAgent === first.loggedDate);
    expect(noticesOf(fixture)).toHaveLength(1);

    await commands.tabVisibility('tab-visible', false);
    const second = (await staff(`/conversations/${id}/messages`, { content: 'Hur mår du idag?' }))
      .body as unknown as ConversationMessageWire;
    await chatRow(fixture, id, (lastAgent) => lastAgent === second.loggedDate);
    await vi.waitFor(() => expect(noticesOf(fixture)).toHaveLength(2));
    // To the tab that reported last; never the message, the counsellor or the provider.
    expect(noticesOf(fixture)[1]).toEqual({
      type: 'system-notice',
      tabId: 'tab-visible',
      notice: { title: 'Du har ett nytt meddelande', tag: `conversation-${id}`, url: '/start#chatt' },
    });

    // SPEC §2: a visible tab whose chat is minimised does not show the message either.
    await commands.tabVisibility('tab-visible', true);
    await commands.chatInView('tab-visible', false);
    const third = (await staff(`/conversations/${id}/messages`, { content: 'Är du kvar?' }))
      .body as unknown as ConversationMessageWire;
    await chatRow(fixture, id, (lastAgent) => lastAgent === third.loggedDate);
    await vi.waitFor(() => expect(noticesOf(fixture)).toHaveLength(3));
    expect(noticesOf(fixture)[2]).toMatchObject({ tabId: 'tab-visible', notice: { url: '/start#chatt' } });

    // Opened again: the message is in view, no notice.
    await commands.chatInView('tab-visible', true);
    const fourth = (await staff(`/conversations/${id}/messages`, { content: 'Bra!' }))
      .body as unknown as ConversationMessageWire;
    await chatRow(fixture, id, (lastAgent) => lastAgent === fourth.loggedDate);
    expect(noticesOf(fixture)).toHaveLength(3);
  });

  it('tell of an answered mail with the way to its thread, to a tab that is still open', async () => {
    const fixture = await child();
    const { commands } = fixture.worker;
    await commands.tabVisibility('tab-closed', true);
    await commands.tabVisibility('tab-open', false);
    fixture.worker.notices.tabGone('tab-closed');
    const sent = valueOf(await commands.sendMail('Skolan', 'Jag är orolig för provet.', MAIL_DEVICE));
    const id = sent.status === 'sent' ? sent.conversationId : -1;

    expect((await staff(`/conversations/${id}/messages`, { content: 'Hej! Berätta mer.' })).status).toBe(201);
    await vi.waitFor(() => expect(noticesOf(fixture)).toHaveLength(1));
    expect(noticesOf(fixture)[0]).toEqual({
      type: 'system-notice',
      tabId: 'tab-open',
      notice: {
        title: 'Du har ett nytt meddelande',
        tag: `conversation-${id}`,
        url: `/mina-sidor/inlagg/${id}`,
      },
    });
  });

  it("lets Web Push subscribe only for the child who said 'Ja, tack' on this browser", async () => {
    const fixture = await child();
    const contactId = (await fixture.db.profile.get('current'))!.contactId;
    // What the page's Web Push keeper watches (src/pwa/web-push-keeper.tsx), as a live query.
    const wanted = () => pushWanted(fixture.db);
    const becomes = (value: boolean) => waitForQuery(wanted, (seen) => seen === value);
    expect(await wanted()).toBe(false);
    await fixture.worker.commands.answerNoticeQuestion('yes');
    expect((await fixture.db.runtime.get('current'))?.pushContacts).toEqual([contactId]);
    await becomes(true);
    // Signed out, the yes stays with the child, not with whoever signs in next on this browser.
    await fixture.worker.commands.logout('user');
    await becomes(false);
    expect((await fixture.db.runtime.get('current'))?.pushContacts).toEqual([contactId]);
    // Another child's profile, as their sign-in writes it (a sign-in may make the at-rest key again).
    fixture.atRest.allowNewKey();
    await fixture.db.profile.put(profileOf(contactId + 1));
    await becomes(false);
    await fixture.db.profile.put(profileOf(contactId));
    await becomes(true);
    await fixture.worker.commands.answerNoticeQuestion('no');
    expect((await fixture.db.runtime.get('current'))?.pushContacts).toEqual([]);
    await becomes(false);
  });

  it('keeps the answer to the question across a sign-out', async () => {
    const fixture = await child();
    await fixture.worker.commands.answerNoticeQuestion('no');
    await fixture.worker.commands.logout('user');
    expect((await fixture.db.runtime.get('current'))?.noticeAnswer).toBe('no');
  });
});
