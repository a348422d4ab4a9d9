import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { HUB_EVENTS } from '../../contract/hub.ts';
import { PEER_EVENTS } from '../../contract/peers.ts';
import { APP_VARIANTS, VARIANT_FEATURES, type VariantFeatures } from '../../contract/variant.ts';
import { randomUUID } from 'node:crypto';
import { api } from '../../harness/test-server.ts';
import { COMMAND_NAMES } from '../../worker/client/api.ts';
import { PLAIN_TABLES as STORED_PLAIN } from '../../worker/base/db.ts';
import { ManualClock } from './helpers.ts';
import { createWorker, useWorkerTestServer } from './worker-fixture.ts';

const env = useWorkerTestServer();

/**
 * The tables that hold no user's data: the session's status, the device's runtime state, and the
 * assistant's guided answers (the same for everyone, kept for offline reading).
 */
const PLAIN_TABLES = ['session', 'runtime', 'assistantContent'];

/** The hub events the server sends only to staff (the staff console hears them). */
const STAFF_EVENTS: string[] = [PEER_EVENTS.moderationChanged];

describe("the worker's module registry", () => {
  it('gives every table of the user’s data exactly one owning module, and the plain ones none', async () => {
    const fixture = await createWorker(env.server);
    env.fixtures.push(fixture);
    const owners = new Map<string, string[]>();
    for (const [name, module] of Object.entries(fixture.worker.moduleRegistry)) {
      for (const table of module.tables) owners.set(table.name, [...(owners.get(table.name) ?? []), name]);
    }
    const wrong = fixture.db.tables
      .map((table) => ({ table: table.name, owners: owners.get(table.name) ?? [] }))
      .filter(({ table, owners: by }) => (PLAIN_TABLES.includes(table) ? by.length !== 0 : by.length !== 1));
    // A table nobody owns is not cleared at sign-out: the next user of a shared phone would see it.
    expect(wrong).toEqual([]);
  });

  it('keeps only those plain tables unsealed on disk', () => {
    // A table added to the unsealed list would keep a child's rows readable on the phone's disk:
    // the list is changed here too, on purpose, or not at all.
    expect([...STORED_PLAIN].sort()).toEqual([...PLAIN_TABLES].sort());
  });

  it('exposes exactly the commands of its modules', async () => {
    const fixture = await createWorker(env.server);
    env.fixtures.push(fixture);
    const declared = Object.values(fixture.worker.moduleRegistry).flatMap((m) => Object.keys(m.commands));
    expect([...declared].sort()).toEqual([...COMMAND_NAMES].sort());
    expect(Object.keys(fixture.worker.commands).sort()).toEqual([...COMMAND_NAMES].sort());
  });

  it('hears, in some variant, every hub event the server sends the app', async () => {
    const heard = new Set<string>();
    for (const variant of APP_VARIANTS) {
      const fixture = await createWorker(env.server, { features: VARIANT_FEATURES[variant] });
      env.fixtures.push(fixture);
      for (const name of fixture.worker.heardEvents()) heard.add(name);
    }
    const sent = [...Object.values(HUB_EVENTS), ...Object.values(PEER_EVENTS)].filter(
      (name) => !STAFF_EVENTS.includes(name),
    );
    // An event nobody hears is a change the child's screens never show until the next reload.
    expect(sent.filter((name) => !heard.has(name))).toEqual([]);
  });

  it('starts and routes events to a module only in the variants it says it runs in', async () => {
    const running = async (variant: (typeof APP_VARIANTS)[number]) => {
      const fixture = await createWorker(env.server, { features: VARIANT_FEATURES[variant] });
      env.fixtures.push(fixture);
      const { worker } = fixture;
      const names = Object.entries(worker.moduleRegistry)
        .filter(([, module]) => worker.modules.includes(module))
        .map(([name]) => name);
      return { names, heard: worker.heardEvents() };
    };
    const barn = await running('Barn');
    const peers = await running('Peers');
    const group = await running('Gruppstod');
    expect(barn.names).not.toContain('peers');
    expect(barn.heard).not.toContain(PEER_EVENTS.boardChanged);
    expect(peers.names).toContain('peers');
    expect(peers.heard).toContain(PEER_EVENTS.boardChanged);
    // Group support's chats belong to its meetings: no child's one-to-one chat is resumed there.
    expect(group.names).not.toContain('oneToOneChat');
    expect(group.heard).not.toContain(HUB_EVENTS.agentIsTyping);
    expect(barn.names).toContain('oneToOneChat');
    // Every module's tables are cleared at sign-out, running here or not.
    const fixture = env.fixtures.at(-1)!;
    expect(fixture.worker.userTables.length).toBe(
      Object.values(fixture.worker.moduleRegistry).flatMap((m) => m.tables).length,
    );
  });

  /** The runner's core on a clock the test holds, signed in as `username`. */
  async function signedIn(username: string, password: string, features?: VariantFeatures) {
    const clock = new ManualClock();
    const fixture = await createWorker(env.server, { clock, ...(features ? { features } : {}) });
    env.fixtures.push(fixture);
    await fixture.worker.start(true);
    expect(await fixture.worker.login(username, password)).toEqual({ ok: true });
    return { clock, w: fixture.worker };
  }

  it.each(APP_VARIANTS)(
    'leaves no timer of the session running after the user signs out (%s)',
    async (variant) => {
      const { clock, w } = await signedIn('demo', 'demo-losenord', VARIANT_FEATURES[variant]);
      await w.commands.loadConversations('mine');
      await w.commands.loadNotifications();
      // The session runs its timers (the token's refresh, the session check, and the modules' own).
      expect(clock.pending()).toBeGreaterThan(0);
      await w.logout('user');
      // Each one left is named by where in the worker it was set.
      expect(clock.pendingSetBy()).toEqual([]);
    },
  );

  it('ends a repeating timer a command started when the session ends, even one its module forgot', async () => {
    const username = `timer-${randomUUID().slice(0, 8)}`;
    const registered = await api(env.server.url, '/portal/api/accounts/registercontact', {
      body: { username, password: 'blå-ballong-73', properties: { birthYear: '2012', gender: 'non-binary' } },
    });
    expect(registered.status).toBe(201);
    const { clock, w } = await signedIn(username, 'blå-ballong-73');
    const before = clock.pending();
    // A chat in the queue: the command starts its queue place, ping and refetch timers.
    const started = await w.commands.startChat(null, {
      platform: 'test',
      userAgent: 'test',
      installed: false,
    });
    expect(started.ok).toBe(true);
    expect(clock.pending()).toBeGreaterThan(before);
    // As if the module forgot to stop them when its user went.
    const chat = w.moduleRegistry.oneToOneChat;
    chat.reset = () => undefined;
    await w.logout('session_expired');
    expect(clock.pendingSetBy()).toEqual([]);
  });
});
