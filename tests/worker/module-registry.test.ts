import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES } from '../../worker/client/api.ts';
import { ManualClock } from './helpers.ts';
import { createWorker, useWorkerTestServer } from './worker-fixture.ts';

const env = useWorkerTestServer();

/**
 * The tables that hold no user's data: the session's status, the device's runtime state, and the
 * assistant's guided answers (the same for everyone, kept for offline reading).
 */
const PLAIN_TABLES = ['session', 'runtime', 'assistantContent'];

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

  it('exposes exactly the commands of its modules', async () => {
    const fixture = await createWorker(env.server);
    env.fixtures.push(fixture);
    const declared = Object.values(fixture.worker.moduleRegistry).flatMap((m) => Object.keys(m.commands));
    expect([...declared].sort()).toEqual([...COMMAND_NAMES].sort());
    expect(Object.keys(fixture.worker.commands).sort()).toEqual([...COMMAND_NAMES].sort());
  });

  it('leaves no timer of the session running after the user signs out', async () => {
    const clock = new ManualClock();
    const fixture = await createWorker(env.server, { clock });
    env.fixtures.push(fixture);
    const w = fixture.worker;
    await w.start(true);
    expect(await w.login('demo', 'demo-losenord')).toEqual({ ok: true });
    await w.commands.loadConversations('mine');
    await w.commands.loadNotifications();
    // The session runs its timers (the token's refresh, the session check, and the modules' own).
    expect(clock.pending()).toBeGreaterThan(0);
    await w.logout('user');
    // Each one left is named by where in the worker it was set.
    expect(clock.pendingSetBy()).toEqual([]);
  });
});
