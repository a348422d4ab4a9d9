import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, login, startTestServer, type TestServer } from '../../../harness/test-server.ts';
import type { Conversation } from '../../../contract/conversations.ts';

/**
 * The estimated wait a queued child is told (docs/decisions.md "An honest estimated wait"), through
 * the real routes: earlier children queued and were taken, their times set to a known hour.
 */
let server: TestServer;
let counsellor: string;
const CONV = '/portal/features/conversations/conversationsapplication-id';
const MINUTE = 60_000;

beforeAll(async () => {
  server = await startTestServer();
  counsellor = (await login(server.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token;
});
afterAll(async () => server.dispose());

let children = 0;
/** A new child with a chat in the queue. */
async function queuedChild() {
  const username = `vantar-${(children += 1)}`;
  const res = await api(server.url, '/portal/api/accounts/registercontact', {
    body: { username, password: 'blå-ballong-73' },
  });
  expect(res.status).toBe(201);
  const token = (await login(server.url, username, 'blå-ballong-73')).access_token;
  const chat = (await api(server.url, '/portal/chat', { token, body: { subject: 'Chatt', text: '' } }))
    .body as unknown as Conversation;
  return { token, id: chat.id };
}

/** A chat that arrived `arrived` minutes ago and that a counsellor took and greeted `waited` later. */
async function takenChat(arrived: number, waited: number) {
  const { id } = await queuedChild();
  const staff = `/portal/staff/conversations/${id}`;
  expect((await api(server.url, `${staff}/accept`, { token: counsellor, body: {} })).status).toBe(200);
  await api(server.url, `${staff}/messages`, { token: counsellor, body: { content: 'Hej!' } });
  const iso = (minutesAgo: number) => new Date(Date.now() - minutesAgo * MINUTE).toISOString();
  await server.ctx.db
    .updateTable('conversations')
    .set({ logged_date: iso(arrived), live_since: iso(arrived - waited) })
    .where('id', '=', id)
    .execute();
  return id;
}

const ownConversation = async (token: string, id: number) =>
  (
    (
      await api(server.url, `${CONV}/conversations?take=9999&skip=0&selection=mine&conversation=${id}`, {
        token,
      })
    ).body as { value: Conversation[] }
  ).value.find((c) => c.id === id);
const queueAnswer = async (token: string, id: number) =>
  (await api(server.url, `${CONV}/queuePosition?conversation=${id}&channel=1`, { token })).body as Pick<
    Conversation,
    'queuePosition' | 'estimatedWait'
  >;

describe('the estimated wait of a queued chat', () => {
  it('is unknown before three chats were taken in the hour, then travels with the queue position', async () => {
    await takenChat(50, 6);
    await takenChat(35, 6);
    const early = await queuedChild();
    expect(await queueAnswer(early.token, early.id)).toEqual({ queuePosition: 1, estimatedWait: null });
    expect((await ownConversation(early.token, early.id))?.estimatedWait).toBeNull();
    // The child leaves the queue untaken: no sample, and no longer ahead of anyone.
    const left = await api(server.url, `${CONV}/cancel`, {
      method: 'PUT',
      token: early.token,
      body: { conversation: early.id },
    });
    expect(left.status).toBe(200);
    await takenChat(20, 6);

    const a = await queuedChild();
    const b = await queuedChild();
    // Three chats taken in the hour, each at place 1 after 6 minutes: 6 minutes a place.
    expect(await queueAnswer(a.token, a.id)).toEqual({ queuePosition: 1, estimatedWait: { minutes: 6 } });
    const own = await ownConversation(a.token, a.id);
    expect(own?.queuePosition).toBe(1);
    expect(own?.estimatedWait).toEqual({ minutes: 6 });
    // Place 2 is beyond any place the hour saw: no estimate rather than a wrong one.
    expect(await queueAnswer(b.token, b.id)).toEqual({ queuePosition: 2, estimatedWait: null });
    expect((await ownConversation(b.token, b.id))?.estimatedWait).toBeNull();

    // An aggregate: a number of minutes and nothing else (no ids, no dates of the chats behind it).
    expect(Object.keys(own!.estimatedWait!)).toEqual(['minutes']);
    expect(Object.keys(await queueAnswer(a.token, a.id)).sort()).toEqual(['estimatedWait', 'queuePosition']);
    // And the child still sees only their own conversation.
    const list = (
      (await api(server.url, `${CONV}/conversations?take=9999&skip=0&selection=mine`, { token: a.token }))
        .body as { value: Conversation[] }
    ).value;
    expect(list.map((c) => c.id)).toEqual([a.id]);
  });

  it('leaves out chats taken more than an hour ago', async () => {
    await server.ctx.db
      .updateTable('conversations')
      .set({ live_since: new Date(Date.now() - 2 * 60 * MINUTE).toISOString() })
      .where('live_since', 'is not', null)
      .execute();
    const c = await queuedChild();
    expect((await queueAnswer(c.token, c.id)).estimatedWait).toBeNull();
  });
});
