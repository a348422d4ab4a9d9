import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { MESSAGES_REFETCH_MS, PING_MS, TYPING_SIGNAL_MIN_INTERVAL_MS } from '../../../contract/timings.ts';
import { outcomeOf } from '../../../worker/base/result.ts';
import { ManualClock } from '../helpers.ts';
import { createWorker } from '../worker-fixture.ts';
import { startedChat, useGroupTestEnv } from './group-helpers.ts';

const env = useGroupTestEnv();

/** Records the worker's calls and resolves waiters when a matching one was made. */
function recordingFetch() {
  const calls: string[] = [];
  const waiters: { match: (c: string) => boolean; resolve: () => void }[] = [];
  const record = (call: string) => {
    calls.push(call);
    for (const w of waiters.filter((x) => x.match(call))) w.resolve();
  };
  const fetchFn: typeof fetch = (input, init) => {
    const url = String(input);
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { type?: string }) : {};
    if (url.includes('/activity')) record(`activity:${body.type}`);
    else if (url.includes('/groupconversationmessages')) record('messages');
    return fetch(input, init);
  };
  const count = (call: string) => calls.filter((c) => c === call).length;
  /** Resolves once `call` was made `n` times in all. */
  const nth = (call: string, n: number) =>
    count(call) >= n
      ? Promise.resolve()
      : new Promise<void>((resolve) =>
          waiters.push({ match: (c) => c === call && count(call) >= n, resolve }),
        );
  const next = (call: string) => nth(call, count(call) + 1);
  return { calls, fetchFn, next, nth, count };
}

/** A participant's worker on a hand-moved clock, its calls recorded, and a started chat to open. */
async function participantOnClock(subject: string) {
  const { conversationId } = await startedChat(env.server, env.leader, subject);
  const clock = new ManualClock();
  const recorder = recordingFetch();
  const fixture = await createWorker(env.server, { clock, fetch: recorder.fetchFn });
  env.fixtures.push(fixture);
  await fixture.worker.start(true);
  await fixture.worker.login('DEMOKOD-0001', null);
  return { conversationId, clock, recorder, chat: fixture.worker.commands };
}

describe('an open group chat over time', () => {
  it('pings every 30 s, refetches every 45 s, and disconnects when the last open closes', async () => {
    const { conversationId, clock, recorder, chat } = await participantOnClock('Timers');

    expect(outcomeOf(await chat.openGroupChat(conversationId))).toBe('ok');
    expect(outcomeOf(await chat.openGroupChat(conversationId))).toBe('ok');
    expect(recorder.calls.filter((c) => c === 'activity:Connect')).toHaveLength(1);

    // Two opens load twice; the subscription, once it holds, refetches once more.
    await recorder.nth('messages', 3);
    const ping = recorder.next('activity:Ping');
    clock.advance(PING_MS);
    await ping;
    expect(recorder.count('messages')).toBe(3);
    const poll = recorder.next('messages');
    clock.advance(MESSAGES_REFETCH_MS - PING_MS);
    await poll;
    expect(recorder.count('messages')).toBe(4);

    await chat.closeGroupChat(conversationId);
    expect(recorder.calls).not.toContain('activity:Disconnect');
    await chat.closeGroupChat(conversationId);
    expect(recorder.calls.at(-1)).toBe('activity:Disconnect');
    const before = recorder.calls.length;
    clock.advance(PING_MS * 3);
    await new Promise((r) => setImmediate(r));
    expect(recorder.calls.slice(before)).toEqual([]);
  });

  it('sends the typing activity at most once every 5 s for a conversation', async () => {
    const { conversationId, clock, recorder, chat } = await participantOnClock('Skriver');
    expect(outcomeOf(await chat.openGroupChat(conversationId))).toBe('ok');

    expect(outcomeOf(await chat.sendTyping(conversationId))).toBe('ok');
    expect(recorder.count('activity:Typing')).toBe(1);
    // Keys pressed within the 5 s send nothing more.
    clock.advance(TYPING_SIGNAL_MIN_INTERVAL_MS - 1);
    expect(outcomeOf(await chat.sendTyping(conversationId))).toBe('ok');
    expect(recorder.count('activity:Typing')).toBe(1);
    // Once they are over, the next key press is sent again.
    clock.advance(1);
    expect(outcomeOf(await chat.sendTyping(conversationId))).toBe('ok');
    expect(recorder.count('activity:Typing')).toBe(2);
    await chat.closeGroupChat(conversationId);
  });
});
