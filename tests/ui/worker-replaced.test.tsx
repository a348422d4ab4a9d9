import './page-dom.ts';
import 'fake-indexeddb/auto';
import * as Comlink from 'comlink';
import { cleanup, screen } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { entityKey, HUB_EVENTS } from '../../contract/hub.ts';
import { COMMAND_NAMES, type WorkerApi, type WorkerCommands } from '../../worker/client/api.ts';
import { AtRestKey } from '../../worker/base/at-rest.ts';
import { PortalDb } from '../../worker/base/db.ts';
import { outcomeOf } from '../../worker/base/result.ts';
import { WorkerBridge } from '../../worker/client/worker-bridge.ts';
import { MeetingCard } from '../../src/meeting-list/meeting-card.tsx';
import { useMeeting } from '../../src/data/meeting-and-chat-hooks.ts';
import { api, startTestServer, type TestServer } from '../../harness/test-server.ts';
import { createMeeting, leaderToken, signedInWorker, startedChat } from '../worker/group/group-helpers.ts';
import { createWorker, type WorkerFixture } from '../worker/worker-fixture.ts';
import { renderWithData, type UiConnection } from './worker-connection.tsx';

/**
 * A tab whose data worker dies and is replaced (worker/client/worker-bridge.ts), against real
 * worker cores and the real server: what the tab registered with the first worker must hold on
 * the second without the tab doing anything.
 */
let server: TestServer;
let leader: string;
const tabs: ReplaceableWorker[] = [];
beforeAll(async () => {
  server = await startTestServer({ variant: 'gruppstod' });
  leader = await leaderToken(server);
});
afterEach(async () => {
  cleanup();
  for (const tab of tabs.splice(0)) await tab.dispose();
});
afterAll(async () => server?.dispose());

interface Answered {
  /** The worker core that answered, or 'tab' once the answer reached the tab. */
  core: number | 'tab';
  name: string;
  args: unknown[];
}

/** How long a new worker may take to be told something before the test says it never was. */
const TOLD_WITHIN_MS = 10_000;

/**
 * One tab's WorkerBridge to worker cores that the test kills: every start (as connect.ts starts a
 * worker) boots a new core on the databases the first one left, reached over a MessageChannel as
 * over a worker's port; its commands wait for the boot, as worker/entry.ts's do. Every call a core
 * answered is recorded with the number of the core.
 */
class ReplaceableWorker {
  readonly bridge: WorkerBridge;
  readonly cores: Promise<WorkerFixture>[] = [];
  readonly answered: Answered[] = [];
  readonly db: PortalDb;
  private readonly channels: MessageChannel[] = [];
  private readonly waiters = new Set<() => void>();
  private failCurrent: () => void = () => undefined;

  constructor(private readonly first: WorkerFixture) {
    // The tab's own connection, reading what the workers sealed with the same key.
    this.db = new PortalDb(first.db.name, undefined, new AtRestKey(first.keyFile));
    this.bridge = new WorkerBridge({
      tabId: 'tab-1',
      locked: Promise.resolve(),
      start: (onError) => this.start(onError),
      onHello: () => undefined,
    });
  }

  /** What the components get: the bridge's commands, each answer recorded as it reaches the tab. */
  get connection(): UiConnection {
    const api = new Proxy(this.bridge.api, {
      get: (target, name, receiver) => {
        const command = Reflect.get(target, name, receiver) as unknown;
        if (typeof name !== 'string' || typeof command !== 'function') return command;
        return async (...args: unknown[]) => {
          const value = (await (command as (...a: unknown[]) => Promise<unknown>)(...args)) as unknown;
          this.record({ core: 'tab', name, args });
          return value;
        };
      },
    });
    return { access: { api, db: this.db }, fixture: this.first, dispose: async () => undefined };
  }

  /** The worker dies: its core stops, and the bridge hears the worker's `error` event. */
  async kill(): Promise<void> {
    const core = await this.cores.at(-1)!;
    await core.worker.retire();
    this.failCurrent();
  }

  /**
   * Resolves once core `core` answered a call of `name` that `matches` (or, for 'tab', once that
   * answer reached the tab); fails after TOLD_WITHIN_MS.
   */
  whenAnswered(
    core: number | 'tab',
    name: keyof WorkerCommands,
    matches: (args: unknown[]) => boolean = () => true,
  ) {
    const found = () => this.answered.find((a) => a.core === core && a.name === name && matches(a.args));
    return new Promise<Answered>((resolve, reject) => {
      const check = () => {
        const hit = found();
        if (!hit) return;
        clearTimeout(timeout);
        this.waiters.delete(check);
        resolve(hit);
      };
      const timeout = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`worker core ${core} was never told ${name}`));
      }, TOLD_WITHIN_MS);
      this.waiters.add(check);
      check();
    });
  }

  async dispose(): Promise<void> {
    this.bridge.close();
    for (const channel of this.channels) {
      channel.port1.close();
      channel.port2.close();
    }
    this.db.close();
    // The later cores only borrow the first one's databases, which go with it, last.
    const cores = await Promise.all(this.cores);
    for (const core of cores.reverse()) await core.dispose();
  }

  private record(answered: Answered): void {
    this.answered.push(answered);
    for (const check of [...this.waiters]) check();
  }

  private start(onError: () => void) {
    const index = this.cores.length;
    const booted =
      index === 0
        ? Promise.resolve(this.first)
        : createWorker(server, { sameDataAs: this.first }).then(async (core) => {
            await core.worker.start(true);
            return core;
          });
    this.cores.push(booted);
    this.failCurrent = onError;
    const commands = Object.fromEntries(
      COMMAND_NAMES.map((name) => [
        name,
        async (...args: unknown[]) => {
          const core = await booted;
          const run = core.worker.commands[name] as (...a: unknown[]) => Promise<unknown>;
          const value = await run(...args);
          this.record({ core: index, name, args });
          return value;
        },
      ]),
    );
    const workerApi = {
      ...commands,
      hello: async (buildId: string) => ({ buildId, ok: true }),
    } as unknown as WorkerApi;
    const channel = new MessageChannel();
    this.channels.push(channel);
    Comlink.expose(workerApi, channel.port1);
    return { endpoint: channel.port2, close: () => channel.port2.close() };
  }
}

async function participantTab(): Promise<ReplaceableWorker> {
  const tab = new ReplaceableWorker(await signedInWorker(server, 'DEMOKOD-0001'));
  tabs.push(tab);
  return tab;
}

/** The meeting list's card of one meeting, drawn from the database as the list draws it. */
function LiveMeetingCard({ meetingId }: { meetingId: number }) {
  const meeting = useMeeting(meetingId);
  return meeting ? (
    <ul>
      <MeetingCard meeting={meeting} now={new Date()} />
    </ul>
  ) : null;
}

describe('a replaced data worker', () => {
  it('watches again the meeting a card watches, and the meeting’s own events reach the card', async () => {
    const meeting = await createMeeting(server, leader, 'Före bytet');
    const tab = await participantTab();
    const first = await tab.cores[0]!;
    expect(outcomeOf(await first.worker.commands.loadMeetings())).toBe('ok');
    renderWithData(server, tab.connection, <LiveMeetingCard meetingId={meeting.id} />);
    await screen.findByRole('heading', { level: 4, name: 'Före bytet' });
    // The card's call was answered: the tab holds the watch (not a call still under way).
    await tab.whenAnswered('tab', 'watchMeeting', ([id, on]) => id === meeting.id && on === true);

    await tab.kill();
    await tab.whenAnswered(1, 'watchMeeting', ([id, on]) => id === meeting.id && on === true);

    // An event for the meeting's subscribers only (not the account channel): only a worker that
    // watches the meeting hears it, refetches the meeting and so changes the card.
    await server.ctx.db
      .updateTable('meetings')
      .set({ subject: 'Efter bytet' })
      .where('id', '=', meeting.id)
      .execute();
    await server.ctx.hub.publishToEntity(entityKey('Meeting', meeting.id), HUB_EVENTS.meetingUpdated, {
      id: meeting.id,
      meetingId: meeting.id,
    });
    await screen.findByRole('heading', { level: 4, name: 'Efter bytet' }, { timeout: TOLD_WITHIN_MS });
  });

  it('keeps the entity subscription the tab made, and its events reach the new worker', async () => {
    const { meetingId, conversationId } = await startedChat(server, leader, 'Prenumeration');
    const tab = await participantTab();
    const key = entityKey('Conversation', conversationId);
    expect(await tab.bridge.api.subscribe(key)).toEqual({ ok: true, value: true });

    await tab.kill();
    await tab.whenAnswered(1, 'subscribe', ([subscribed]) => subscribed === key);
    const second = await tab.cores[1]!;
    const heard = new Promise<unknown>((resolve) => second.worker.on(HUB_EVENTS.messageCreated, resolve));
    const posted = await api(server.url, `/portal/staff/meetings/${meetingId}/messages`, {
      token: leader,
      body: { content: 'Till alla efter bytet' },
    });
    expect(posted.status).toBe(201);
    expect(await heard).toMatchObject({ conversationId });
  });

  it('tells the new worker the latest of what the tab said of itself', async () => {
    const tab = await participantTab();
    const { api: workerApi } = tab.bridge;
    await workerApi.tabVisibility('tab-1', true);
    await workerApi.tabVisibility('tab-1', false);
    await workerApi.chatInView('tab-1', true);

    await tab.kill();
    await Promise.all([tab.whenAnswered(1, 'chatInView'), tab.whenAnswered(1, 'tabVisibility')]);
    const told = tab.answered.filter((a) => a.core === 1).sort((a, b) => a.name.localeCompare(b.name));
    expect(told).toEqual([
      { core: 1, name: 'chatInView', args: ['tab-1', true] },
      { core: 1, name: 'tabVisibility', args: ['tab-1', false] },
    ]);
  });
});
