import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { entityKey } from '../../../contract/hub.ts';
import { AWAY_WITHIN_MS } from '../../../contract/timings.ts';
import { CONNECTIONS_THROTTLE_MS } from '../../../worker/sync/group-chat.ts';
import { PING_MS, PRESENCE_REFRESH_MS } from '../../../contract/timings.ts';
import { outcomeOf } from '../../../worker/base/result.ts';
import { api } from '../../../harness/test-server.ts';
import { ManualClock, waitForQuery } from '../helpers.ts';
import { createWorker, type WorkerFixture } from '../worker-fixture.ts';
import { startedChat, useGroupTestEnv } from './group-helpers.ts';

const env = useGroupTestEnv();

/**
 * A participant's worker core on a clock of its own, signed in, with the group chat open.
 * `pinged()` resolves once the server has answered this participant's next Ping.
 */
async function inChat(code: string, conversationId: number) {
  const clock = new ManualClock();
  let onPing: (() => void) | null = null;
  const fetchFn: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { type?: unknown }) : {};
    if (String(input).includes('/activity') && body.type === 'Ping') onPing?.();
    return response;
  };
  const fixture = await createWorker(env.server, { clock, fetch: fetchFn });
  env.fixtures.push(fixture);
  await fixture.worker.start(true);
  const login = await fixture.worker.login(code, null);
  if (!login.ok) throw new Error(`login ${code}: ${login.code}`);
  // The hub first: the subscription's retries wait on this (manual) clock.
  await waitForQuery(
    () => fixture.db.runtime.get('current'),
    (row) => row?.hubState === 'Connected',
  );
  expect(outcomeOf(await fixture.worker.commands.openGroupChat(conversationId))).toBe('ok');
  // The chat's subscription is not awaited by the open; holding it once more waits for it to hold.
  expect(await fixture.worker.commands.subscribe(entityKey('Conversation', conversationId), 'group')).toEqual(
    {
      ok: true,
      value: true,
    },
  );
  const name = (await fixture.db.profile.get('current'))!.username;
  /** Advances this participant's clock to its next Ping and resolves once the server stored it. */
  const ping = async () => {
    const answered = new Promise<void>((resolve) => (onPing = resolve));
    clock.advance(PING_MS);
    await answered;
    return lastPingOnServer(conversationId, name);
  };
  return { clock, fixture, name, ping };
}

const lastPingOnServer = async (conversationId: number, contactName: string) =>
  (
    await env.server.ctx.db
      .selectFrom('conversation_connections')
      .select('last_pinged_date')
      .where('conversation_id', '=', conversationId)
      .where('contact_name', '=', contactName)
      .executeTakeFirstOrThrow()
  ).last_pinged_date;

const rowOf = (f: WorkerFixture, conversationId: number, contactName: string) =>
  f.db.connections
    .where('conversation')
    .equals(conversationId)
    .filter((c) => c.contactName === contactName)
    .first();

/**
 * A hears of B's Connect through the hub. A's own Connect event opened the throttle's window on A's
 * manual clock, so B's refetch is the trailing one: A's clock moves past the window.
 */
async function bSeenByA(a: { clock: ManualClock; fixture: WorkerFixture }, bName: string, id: number) {
  a.clock.advance(CONNECTIONS_THROTTLE_MS);
  return waitForQuery(
    () => rowOf(a.fixture, id, bName),
    (row) => row !== undefined,
  );
}

describe('the presence list of an open group chat', () => {
  it('follows the other participants’ pings (no hub event) at the presence refresh', async () => {
    const { conversationId } = await startedChat(env.server, env.leader, 'Närvaro 1');
    const a = await inChat('DEMOKOD-0001', conversationId);
    const b = await inChat('DEMOKOD-0002', conversationId);
    const bName = b.name;
    const seen = await bSeenByA(a, b.name, conversationId);

    // B pings; B was Connected, so the server sends no event; A refetches on its own timer.
    const pinged = await b.ping();
    expect(pinged).not.toBe(seen!.lastPingedDate);
    a.clock.advance(PRESENCE_REFRESH_MS);
    await waitForQuery(
      () => rowOf(a.fixture, conversationId, bName),
      (row) => row?.lastPingedDate === pinged,
    );
  });

  it('hears at once when a participant silent for minutes pings again', async () => {
    const { conversationId } = await startedChat(env.server, env.leader, 'Närvaro 2');
    const a = await inChat('DEMOKOD-0001', conversationId);
    const b = await inChat('DEMOKOD-0002', conversationId);
    const bName = b.name;
    await bSeenByA(a, b.name, conversationId);
    // B's last sign of life lies beyond the 'Away' limit (a laptop asleep, no Disconnect sent).
    const long = new Date(Date.now() - AWAY_WITHIN_MS - 60_000).toISOString();
    await env.server.ctx.db
      .updateTable('conversation_connections')
      .set({ connected_date: long, last_pinged_date: long })
      .where('conversation_id', '=', conversationId)
      .where('contact_name', '=', bName)
      .execute();

    // B's next Ping is a return: A refetches on the hub event, long before its presence refresh
    // (A's clock only leaves the window of the throttle that passed B's Connect).
    a.clock.advance(CONNECTIONS_THROTTLE_MS);
    const pinged = await b.ping();
    expect(pinged).not.toBe(long);
    await waitForQuery(
      () => rowOf(a.fixture, conversationId, bName),
      (row) => row?.lastPingedDate === pinged,
    );
  });

  it("reads a finished chat's history without posting Connect, Ping or Disconnect", async () => {
    const { meetingId, conversationId } = await startedChat(env.server, env.leader, 'Avslutad träff');
    const ended = await api(env.server.url, `/portal/staff/meetings/${meetingId}/end`, {
      token: env.leader,
      body: {},
    });
    expect(ended.status).toBe(200);
    const clock = new ManualClock();
    const activities: string[] = [];
    const fetchFn: typeof fetch = (input, init) => {
      if (String(input).includes('/activity')) activities.push(String(init?.body));
      return fetch(input, init);
    };
    const fixture = await createWorker(env.server, { clock, fetch: fetchFn });
    env.fixtures.push(fixture);
    await fixture.worker.start(true);
    expect((await fixture.worker.login('DEMOKOD-0003', null)).ok).toBe(true);

    expect(outcomeOf(await fixture.worker.commands.openGroupChat(conversationId))).toBe('ok');
    expect((await fixture.db.conversations.get(conversationId))?.state).toMatch(/Resolved|Closed/);
    clock.advance(PING_MS * 2);
    await fixture.worker.commands.closeGroupChat(conversationId);
    expect(activities).toEqual([]);
    const connections = await env.server.ctx.db
      .selectFrom('conversation_connections')
      .select('contact_name')
      .where('conversation_id', '=', conversationId)
      .execute();
    expect(connections).toEqual([]);
  });
});
