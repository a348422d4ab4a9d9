import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { CANCEL_REASON } from '../../worker/sync/one-to-one-chat.ts';
import { LEAVE_QUEUE_DELAY_MS } from '../../contract/timings.ts';
import { api } from '../../harness/test-server.ts';
import { useCounsellorTestEnv } from './child-helpers.ts';
import { ManualClock, waitForQuery } from './helpers.ts';
import { createWorker } from './worker-fixture.ts';
import { outcomeOf } from '../../worker/base/result.ts';

const env = useCounsellorTestEnv();
const { fixtures } = env;
const DEVICE = {
  userAgent:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  platform: 'Linux armv8l',
  installed: true,
};

async function newChild() {
  const username = `barn-${randomUUID().slice(0, 8)}`;
  const res = await api(env.server.url, '/portal/api/accounts/registercontact', {
    body: { username, password: 'blå-ballong-73', properties: { birthYear: '2012', gender: 'non-binary' } },
  });
  expect(res.status).toBe(201);
  return username;
}

/** The body of an activity the worker posts (SPEC §7). */
interface Activity {
  conversation: number;
  type: string;
  content: string;
}

/**
 * A signed-in worker core; `calls` records every request it makes ('PUT cancel', ...) and
 * `activities` every activity it posts.
 */
async function signedIn(
  username: string,
  options: {
    clock?: ManualClock;
    fail?: RegExp | { test(call: string): boolean };
    /** Told of every request as it starts. */
    seen?: (call: string) => void;
    /** Told of every activity posted, as it starts. */
    posted?: (activity: Activity) => void;
  } = {},
) {
  const calls: string[] = [];
  const activities: Activity[] = [];
  const fixture = await createWorker(env.server, {
    ...(options.clock ? { clock: options.clock } : {}),
    fetch: (input, init) => {
      const url = new URL(String(input));
      const call = `${init?.method ?? 'GET'} ${url.pathname.split('/').at(-1)}`;
      calls.push(call);
      options.seen?.(call);
      if (call === 'POST activity' && typeof init?.body === 'string') {
        const activity = JSON.parse(init.body) as Activity;
        activities.push(activity);
        options.posted?.(activity);
      }
      if (options.fail?.test(call)) return Promise.resolve(new Response('{}', { status: 500 }));
      return fetch(input, init);
    },
  });
  fixtures.push(fixture);
  await fixture.worker.start(true);
  expect((await fixture.worker.login(username, 'blå-ballong-73')).ok).toBe(true);
  return { ...fixture, calls, activities };
}

const staffQueue = async () =>
  (
    (await api(env.server.url, '/portal/staff/queue', { token: env.counsellor })).body as {
      value: { id: number; state: string; properties: Record<string, string> }[];
    }
  ).value;

describe('the child one-to-one chat in the worker', () => {
  it('creates a chat with the conversation properties and keeps its queue place in Dexie', async () => {
    const child = await signedIn(await newChild());
    const result = await child.worker.commands.startChat(null, DEVICE);
    expect(result.ok).toBe(true);
    const id = result.ok ? result.value : -1;

    const state = await child.db.chatState.get('current');
    expect(state).toMatchObject({ conversationId: id, preSubmitted: false, cancelledByUser: false });
    const row = await waitForQuery(
      () => child.db.conversations.get(id),
      (c) => c?.queuePosition === 1 || c?.queuePosition === 2,
    );
    expect(row?.state).toBe('New');

    const queued = (await staffQueue()).find((q) => q.id === id);
    expect(queued?.properties).toEqual({
      age: String(new Date().getFullYear() - 2012),
      gender: 'non-binary',
      device: 'Mobile, Android, Linux armv8l, Chrome, 131.0.0.0, PWA: Ja',
    });

    // A second start while one is going: the server's HasActive, and the same chat stays.
    expect(await child.worker.commands.startChat(null, DEVICE)).toEqual({ ok: false, code: 'HasActive' });
    expect(await child.worker.commands.chatAccountStatus()).toEqual({ ok: true, value: 'HasActive' });
    await child.worker.commands.leaveQueue(id);
  });

  it('waits 3 s before leaving a chat younger than 5 s, then cancels it with the fixed reason', async () => {
    const clock = new ManualClock();
    const child = await signedIn(await newChild(), { clock });
    const result = await child.worker.commands.startChat(null, DEVICE);
    const id = result.ok ? result.value : -1;
    // The server stamped the chat with its own (real) time; the manual clock starts there too.
    // The wait is a timer of its own, beside the session check (which the unmoved clock may have
    // due at the same moment), queue position 15 s and ping 30 s.
    const waitEnds = clock.now() + LEAVE_QUEUE_DELAY_MS;
    const dueThen = () => clock.dueTimes().filter((at) => at === waitEnds).length;
    const before = dueThen();
    const leaving = child.worker.commands.leaveQueue(id);
    await vi.waitFor(() => expect(dueThen()).toBe(before + 1));
    clock.advance(LEAVE_QUEUE_DELAY_MS - 1);
    expect(child.calls).not.toContain('PUT cancel');
    clock.advance(1);
    await leaving;
    expect(child.calls).toContain('PUT cancel');
    expect(child.calls).not.toContain('PUT delete');
    expect((await child.db.conversations.get(id))?.state).toBe('Cancelled');
    expect((await child.db.chatState.get('current'))?.cancelledByUser).toBe(true);
    expect((await staffQueue()).map((q) => q.id)).not.toContain(id);
    expect(CANCEL_REASON).toMatch(/barnet/);
  });

  it('deletes the conversation when the cancel call fails', async () => {
    const child = await signedIn(await newChild(), { fail: /^PUT cancel$/ });
    const result = await child.worker.commands.startChat(null, DEVICE);
    const id = result.ok ? result.value : -1;
    await child.worker.commands.leaveQueue(id);
    expect(child.calls).toContain('PUT delete');
    expect((await staffQueue()).map((q) => q.id)).not.toContain(id);
    expect((await child.db.chatState.get('current'))?.cancelledByUser).toBe(true);
  });

  it('finds the ongoing chat again on another device, follows the counsellor and resolves on end', async () => {
    const username = await newChild();
    const phone = await signedIn(username);
    const started = await phone.worker.commands.startChat('Jag vill prata om skolan.', DEVICE);
    const id = started.ok ? started.value : -1;
    expect((await phone.db.chatState.get('current'))?.preSubmitted).toBe(true);

    const laptop = await signedIn(username);
    await waitForQuery(
      () => laptop.db.chatState.get('current'),
      (s) => s?.conversationId === id,
    );
    await api(env.server.url, `/portal/staff/conversations/${id}/accept`, {
      token: env.counsellor,
      body: {},
    });
    await api(env.server.url, `/portal/staff/conversations/${id}/messages`, {
      token: env.counsellor,
      body: { content: 'Hej, jag lyssnar.' },
    });
    // Hub events reach both devices: the conversation turns active and the message is there.
    for (const device of [phone, laptop]) {
      await waitForQuery(
        () => device.db.conversations.get(id),
        (c) => c?.state === 'InProgress' && c.lastAgentMessageDate !== null,
      );
      await waitForQuery(
        () => device.db.chatMessages.where('conversation').equals(id).toArray(),
        (rows) => rows.some((r) => r.message === 'Hej, jag lyssnar.'),
      );
    }

    expect(outcomeOf(await laptop.worker.commands.endChat(id))).toBe('ok');
    await waitForQuery(
      () => phone.db.conversations.get(id),
      (c) => c?.state === 'Resolved',
    );
    expect(await laptop.worker.commands.chatAccountStatus()).toEqual({
      ok: true,
      value: 'HasCompletedAConversation',
    });
  });

  it('logging out ends a queued chat and leaves no chat data behind', async () => {
    const child = await signedIn(await newChild());
    const result = await child.worker.commands.startChat(null, DEVICE);
    const id = result.ok ? result.value : -1;
    await child.worker.logout('user');
    expect(child.calls).toContain('POST activity');
    expect(child.calls).toContain('PUT cancel');
    expect((await staffQueue()).map((q) => q.id)).not.toContain(id);
    expect(await child.db.chatState.count()).toBe(0);
    expect(await child.db.conversations.count()).toBe(0);
  });

  it('logging out writes "Användaren loggade ut" to the chat’s log before ending it', async () => {
    const child = await signedIn(await newChild());
    const result = await child.worker.commands.startChat(null, DEVICE);
    expect(result.ok).toBe(true);
    const id = result.ok ? result.value : -1;
    await child.worker.logout('user');
    expect(child.activities).toContainEqual({
      conversation: id,
      type: 'Log',
      content: 'Användaren loggade ut',
    });
    expect(child.calls.indexOf('POST activity')).toBeLessThan(child.calls.indexOf('PUT cancel'));
  });

  it('writes a real-time error to the log of the chat it waits in', async () => {
    let logged: (activity: Activity) => void = () => undefined;
    const errorLogged = new Promise<Activity>((resolve) => (logged = resolve));
    const child = await signedIn(await newChild(), {
      posted: (activity) => {
        if (activity.type === 'Error') logged(activity);
      },
    });
    const result = await child.worker.commands.startChat(null, DEVICE);
    expect(result.ok).toBe(true);
    const id = result.ok ? result.value : -1;
    // A subscription the server refuses is a real-time error.
    expect(await child.worker.subscribe('Conversation:999999999')).toBe(false);
    const activity = await errorLogged;
    expect(activity).toMatchObject({ conversation: id, type: 'Error' });
    expect(activity.content).toContain('Conversation:999999999');
  });

  it('reconciles the messages the hub brought only once the chat has been quiet, off the hot path', async () => {
    let reconciled = () => {};
    let watching = false;
    const fetched = new Promise<void>((resolve) => (reconciled = resolve));
    const child = await signedIn(await newChild(), {
      seen: (call) => void (watching && call === 'GET messages' && reconciled()),
    });
    const started = await child.worker.commands.startChat(null, DEVICE);
    const id = started.ok ? started.value : -1;
    await api(env.server.url, `/portal/staff/conversations/${id}/accept`, {
      token: env.counsellor,
      body: {},
    });
    await waitForQuery(
      () => child.db.conversations.get(id),
      (c) => c?.state === 'InProgress',
    );
    watching = true;
    const from = child.calls.length;
    for (const text of ['Hej!', 'Jag heter Anna.', 'Vad vill du prata om?']) {
      await api(env.server.url, `/portal/staff/conversations/${id}/messages`, {
        token: env.counsellor,
        body: { content: text },
      });
      await waitForQuery(
        () => child.db.chatMessages.where('conversation').equals(id).toArray(),
        (list) => list.some((r) => r.message === text),
      );
    }
    // Three messages shown, and not one fetch of the list on their way.
    expect(child.calls.slice(from)).not.toContain('GET messages');
    // The reconciling fetch follows by itself, and changes nothing.
    await fetched;
    const rows = await child.db.chatMessages.where('conversation').equals(id).toArray();
    expect(rows.filter((r) => r.authorKind === 'agent').map((r) => r.message)).toEqual([
      'Hej!',
      'Jag heter Anna.',
      'Vad vill du prata om?',
    ]);
  });

  it("shows a counsellor's message from the hub event itself, with no list of messages answering", async () => {
    let refusing = false;
    const child = await signedIn(await newChild(), {
      fail: { test: (call) => refusing && call === 'GET messages' },
    });
    const started = await child.worker.commands.startChat(null, DEVICE);
    const id = started.ok ? started.value : -1;
    await api(env.server.url, `/portal/staff/conversations/${id}/accept`, {
      token: env.counsellor,
      body: {},
    });
    await waitForQuery(
      () => child.db.conversations.get(id),
      (c) => c?.state === 'InProgress',
    );
    // From now on every fetch of the messages fails: only the event can bring the message.
    refusing = true;
    await api(env.server.url, `/portal/staff/conversations/${id}/messages`, {
      token: env.counsellor,
      body: { content: 'Jag är här nu.' },
    });
    const rows = await waitForQuery(
      () => child.db.chatMessages.where('conversation').equals(id).toArray(),
      (list) => list.some((r) => r.message === 'Jag är här nu.'),
    );
    expect(rows.filter((r) => r.message === 'Jag är här nu.')).toEqual([
      expect.objectContaining({ authorKind: 'agent', clientId: null, conversation: id }),
    ]);
  });
});
