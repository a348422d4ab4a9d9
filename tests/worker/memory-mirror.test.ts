import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { PortalDb } from '../../worker/client/db.ts';
import { followMirror, memoryIndexedDb, publishMirror } from '../../worker/client/memory-mirror.ts';
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

const cache = (key: 'threads' | 'mypages', value: string) => ({ key, value, storedAt: 1 });
const rows = (db: PortalDb) => db.caches.orderBy('key').toArray();
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
    await db.caches.put(cache('threads', 'före'));
    await db.session.put({ id: 'current', status: 'authenticated', changedAt: 1 });

    const copy = await tabCopy(name);
    expect(await copy.caches.get('threads')).toEqual(cache('threads', 'före'));
    expect((await copy.session.get('current'))?.status).toBe('authenticated');

    await db.caches.put(cache('mypages', 'efter'));
    await db.caches.update('threads', { value: 'ändrad' });
    await db.transaction('rw', db.caches, async () => {
      await db.caches.put(cache('threads', 'snabbt'));
      await db.caches.delete('threads');
    });
    await db.caches.where('key').equals('mypages').modify({ value: 'via modify' });
    await settle(db);
    await sameRows(copy, db);
    expect(await rows(copy)).toEqual([cache('mypages', 'via modify')]);

    await db.caches.clear();
    await waitForQuery(
      () => copy.caches.count(),
      (n) => n === 0,
    );
  });

  it('misses nothing written while a tab joins', async () => {
    const { db, name } = await workerDb();
    const writes = (async () => {
      for (let i = 0; i < 40; i++) await db.caches.put(cache(i % 2 ? 'threads' : 'mypages', `v${i}`));
    })();
    const copy = await tabCopy(name);
    await writes;
    await settle(db);
    await sameRows(copy, db);
    expect((await rows(copy)).map((r) => r.value)).toEqual(['v38', 'v39']);
  });

  it('feeds several tabs, and a tab never writes back', async () => {
    const { db, name } = await workerDb();
    const [first, second] = [await tabCopy(name), await tabCopy(name)];
    await db.caches.put(cache('threads', 'till alla'));
    await settle(db);
    await Promise.all([sameRows(first, db), sameRows(second, db)]);
    // A copy is a reader's: what it changes stays in it (the UI never writes).
    await first.caches.put(cache('mypages', 'bara här'));
    await db.caches.put(cache('threads', 'igen'));
    await settle(db);
    await sameRows(second, db);
    expect(await db.caches.get('mypages')).toBeUndefined();
  });

  it('says so when no worker keeps a session in memory', async () => {
    await expect(tabCopy(uniqueName('nobody'))).rejects.toThrow('No shared-device session answered');
  }, 10_000);
});
