import Dexie, {
  type DBCoreKeyRange,
  type DBCoreMutateRequest,
  type DexieOptions,
  type IndexableType,
} from 'dexie';
import { PortalDb } from './db.ts';

/**
 * Shared-device mode keeps nothing on disk: the worker's `portal-data` lives in an in-memory
 * IndexedDB (fake-indexeddb), which no tab can open. Each tab therefore keeps an in-memory copy of
 * its own, fed over a BroadcastChannel: a snapshot when it joins, then every committed change. Only
 * the worker writes (as with the database on disk), so the copy is never written back.
 *
 * Order: changes are published in the order their transactions committed, each as the rows' state
 * read after that commit (or a deletion), one publication at a time; a joining tab buffers what
 * arrives before its snapshot and applies it after. Every message is a state, not a step, so a
 * change seen twice (in the snapshot and after it) leaves the same rows.
 */

/** Names in shared-device mode: the data worker (and its channel), and its in-memory databases. */
export const MEMORY_WORKER_NAME = 'portal-memory';
export const MEMORY_DATA_NAME = 'portal-memory-data';
export const MEMORY_AUTH_NAME = 'portal-memory-auth';

/** An in-memory IndexedDB of its own for one Dexie database (loaded only in shared-device mode). */
export async function memoryIndexedDb(): Promise<DexieOptions> {
  const { IDBFactory, IDBKeyRange } = await import('fake-indexeddb');
  return { indexedDB: new IDBFactory(), IDBKeyRange };
}

type KeyRange = Pick<DBCoreKeyRange, 'type' | 'lower' | 'upper' | 'lowerOpen' | 'upperOpen'>;

export type MirrorMessage =
  | { type: 'snapshot?'; id: string }
  | { type: 'snapshot'; id: string; tables: Record<string, unknown[]> }
  /** Rows as they are now (`rows`), and keys that no longer exist (`deleted`). */
  | { type: 'rows'; table: string; rows: unknown[]; deleted: IndexableType[] }
  | { type: 'range-deleted'; table: string; range: KeyRange };

type Change = { table: string; keys: IndexableType[] } | { table: string; range: KeyRange };

const RANGE_ANY = 3;
const RANGE_EQUAL = 1;

/**
 * The worker's side: publishes every committed change of `db` and answers snapshot requests.
 * Call before `db` is first used (a Dexie middleware is added).
 */
export function publishMirror(db: PortalDb, channel: BroadcastChannel): void {
  let queue = Promise.resolve();
  const enqueue = (job: () => Promise<void>) => {
    queue = queue.then(job).catch((error: unknown) => console.error('Memory mirror failed', error));
  };
  const pending = new WeakMap<object, Change[]>();

  const publish = async (changes: Change[]) => {
    for (const change of changes) {
      if ('range' in change) {
        channel.postMessage({
          type: 'range-deleted',
          table: change.table,
          range: change.range,
        } satisfies MirrorMessage);
        continue;
      }
      const found = await db.table(change.table).bulkGet(change.keys);
      const rows = found.filter((row) => row !== undefined);
      const deleted = change.keys.filter((_, i) => found[i] === undefined);
      channel.postMessage({ type: 'rows', table: change.table, rows, deleted } satisfies MirrorMessage);
    }
  };

  db.use({
    stack: 'dbcore',
    name: 'memory-mirror',
    create: (down) => ({
      ...down,
      table: (name) => {
        const table = down.table(name);
        return {
          ...table,
          mutate: async (req: DBCoreMutateRequest) => {
            const result = await table.mutate(req);
            const trans = req.trans as unknown as IDBTransaction;
            let changes = pending.get(trans);
            if (!changes) {
              const list: Change[] = [];
              changes = list;
              pending.set(trans, list);
              trans.addEventListener('complete', () => enqueue(() => publish(list)));
            }
            changes.push(changeOf(name, req, result.results));
            return result;
          },
        };
      },
    }),
  });

  channel.addEventListener('message', (event: MessageEvent<MirrorMessage>) => {
    const message = event.data;
    if (message.type !== 'snapshot?') return;
    enqueue(async () => {
      const tables: Record<string, unknown[]> = {};
      await db.transaction('r', db.tables, async () => {
        for (const table of db.tables) tables[table.name] = await table.toArray();
      });
      channel.postMessage({ type: 'snapshot', id: message.id, tables } satisfies MirrorMessage);
    });
  });
}

function changeOf(table: string, req: DBCoreMutateRequest, results: unknown[] | undefined): Change {
  if (req.type === 'deleteRange') {
    const { type, lower, upper, lowerOpen, upperOpen } = req.range;
    return { table, range: { type, lower, upper, lowerOpen, upperOpen } };
  }
  if (req.type === 'delete') return { table, keys: [...req.keys] };
  const keys = [
    ...(results ?? []),
    ...(req.keys ?? []),
    ...(req.type === 'put' ? (req.updates?.keys ?? []) : []),
  ];
  return { table, keys: [...new Set(keys.filter((key) => key !== undefined))] };
}

/** How often a tab asks again for its snapshot while the worker is still starting. */
const SNAPSHOT_RETRY_MS = 100;
/** No worker answered this long: there is no shared-device session to follow. */
export const SNAPSHOT_TIMEOUT_MS = 5_000;

/**
 * A tab's side: an in-memory copy of the worker's database, kept current from `channel`. Resolves
 * once the snapshot is in; rejects when no worker answers within SNAPSHOT_TIMEOUT_MS.
 */
export async function followMirror(channel: BroadcastChannel): Promise<PortalDb> {
  const db = new PortalDb(MEMORY_DATA_NAME, await memoryIndexedDb());
  const id = crypto.randomUUID();
  const buffered: MirrorMessage[] = [];
  let snapshotIn = false;
  let queue = Promise.resolve();
  const apply = (message: MirrorMessage) => {
    queue = queue
      .then(() => applyMessage(db, message))
      .catch((error: unknown) => console.error('Memory copy failed', error));
  };

  return new Promise<PortalDb>((resolve, reject) => {
    const ask = () => channel.postMessage({ type: 'snapshot?', id } satisfies MirrorMessage);
    const retry = setInterval(ask, SNAPSHOT_RETRY_MS);
    const timeout = setTimeout(() => {
      clearInterval(retry);
      reject(new Error('No shared-device session answered'));
    }, SNAPSHOT_TIMEOUT_MS);
    channel.addEventListener('message', (event: MessageEvent<MirrorMessage>) => {
      const message = event.data;
      if (message.type === 'snapshot?') return;
      if (message.type === 'snapshot') {
        if (snapshotIn || message.id !== id) return;
        snapshotIn = true;
        clearInterval(retry);
        clearTimeout(timeout);
        apply(message);
        for (const later of buffered.splice(0)) apply(later);
        queue = queue.then(() => resolve(db));
        return;
      }
      if (snapshotIn) apply(message);
      else buffered.push(message);
    });
    ask();
  });
}

async function applyMessage(db: PortalDb, message: MirrorMessage): Promise<void> {
  if (message.type === 'snapshot') {
    await db.transaction('rw', db.tables, async () => {
      for (const table of db.tables) {
        await table.clear();
        await table.bulkPut(message.tables[table.name] ?? []);
      }
    });
    return;
  }
  if (message.type === 'rows') {
    const table = db.table(message.table);
    await db.transaction('rw', table, async () => {
      if (message.rows.length) await table.bulkPut(message.rows);
      if (message.deleted.length) await table.bulkDelete(message.deleted);
    });
    return;
  }
  if (message.type === 'range-deleted') {
    const table = db.table(message.table);
    const { type, lower, upper, lowerOpen, upperOpen } = message.range;
    if (type === RANGE_ANY) await table.clear();
    else if (type === RANGE_EQUAL) await table.delete(lower);
    else {
      await table
        .where(':id')
        .between(lower ?? Dexie.minKey, upper ?? Dexie.maxKey, !lowerOpen, !upperOpen)
        .delete();
    }
  }
}
