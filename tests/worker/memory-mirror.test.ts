import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { PortalDb } from '../../worker/base/db.ts';
import { followMirror, memoryIndexedDb, publishMirror } from '../../worker/base/memory-mirror.ts';
import { uniqueName, waitForQuery } from './helpers.ts';

// Shared-device mode: the worker's in-memory database and a tab's copy of it, over a real
// BroadcastChannel, both on their own in-memory IndexedDB (fake-indexeddb), as in the browser.

const open: { close(): void }[] = [];
afterEach(() => {
  for (const item of open.splice(0)) item.close();
});

async function workerDb() {
  const name = uniqueName('mirror');
  const db = new PortalDb(name, await memoryIndexedDb());
  const channel = new BroadcastChannel(name);
  publishMirror(db, channel);
  open.push(db, channel);
  return { db, name };
}

async function tabCopy(name: string) {
  const channel = new BroadcastChannel(name);
  const copy = await followMirror(channel);
  open.push(copy, channel);
  return copy;
}

/** Rows of a plain keyed table (who is typing), standing for any table the worker writes. */
const row = (key: 'threads' | 'mypages', value: string) => ({
  key,
  conversation: 1,
  contactId: 1,
  contactName: value,
  at: 1,
});
const rows = (db: PortalDb) => db.typing.orderBy('key').toArray();
const sameRows = async (copy: PortalDb, worker: PortalDb) =>
  waitForQuery(
    () => rows(copy),
    (copied) => JSON.stringify(copied) === JSON.stringify(rowsNow.get(worker)),
  );
const rowsNow = new Map<PortalDb, unknown>();
async function settle(worker: PortalDb) {
  rowsNow.set(worker, await rows(worker));
}

describe('memory mirror', () => {
  it('gives a joining tab what the worker holds, then every change in order', async () => {
    const { db, name } = await workerDb();
    await db.typing.put(row('threads', 'före'));
    await db.session.put({ id: 'current', status: 'authenticated', changedAt: 1 });

    const copy = await tabCopy(name);
    expect(await copy.typing.get('threads')).toEqual(row('threads', 'före'));
    expect((await copy.session.get('current'))?.status).toBe('authenticated');

    await db.typing.put(row('mypages', 'efter'));
    await db.typing.update('threads', { contactName: 'ändrad' });
    await db.transaction('rw', db.typing, async () => {
      await db.typing.put(row('threads', 'snabbt'));
      await db.typing.delete('threads');
    });
    await db.typing.where('key').equals('mypages').modify({ contactName: 'via modify' });
    await settle(db);
    await sameRows(copy, db);
    expect(await rows(copy)).toEqual([row('mypages', 'via modify')]);

    await db.typing.clear();
    await waitForQuery(
      () => copy.typing.count(),
      (n) => n === 0,
    );
  });

  it('misses nothing written while a tab joins', async () => {
    const { db, name } = await workerDb();
    const writes = (async () => {
      for (let i = 0; i < 40; i++) await db.typing.put(row(i % 2 ? 'threads' : 'mypages', `v${i}`));
    })();
    const copy = await tabCopy(name);
    await writes;
    await settle(db);
    await sameRows(copy, db);
    expect((await rows(copy)).map((r) => r.contactName)).toEqual(['v38', 'v39']);
  });

  it('feeds several tabs, and a tab never writes back', async () => {
    const { db, name } = await workerDb();
    const [first, second] = [await tabCopy(name), await tabCopy(name)];
    await db.typing.put(row('threads', 'till alla'));
    await settle(db);
    await Promise.all([sameRows(first, db), sameRows(second, db)]);
    // A copy is a reader's: what it changes stays in it (the UI never writes).
    await first.typing.put(row('mypages', 'bara här'));
    await db.typing.put(row('threads', 'igen'));
    await settle(db);
    await sameRows(second, db);
    expect(await db.typing.get('mypages')).toBeUndefined();
  });

  it('says so when no worker keeps a session in memory', async () => {
    await expect(tabCopy(uniqueName('nobody'))).rejects.toThrow('No shared-device session answered');
  }, 10_000);
});
