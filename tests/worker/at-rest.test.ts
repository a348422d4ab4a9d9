import 'fake-indexeddb/auto';
import Dexie, { liveQuery } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { AtRestKey, IV_BYTES, KEY_ID_CHARS } from '../../worker/base/at-rest.ts';
import { PortalDb, type OutboxRow } from '../../worker/base/db.ts';
import type { ChatMessageRow } from '../../worker/base/group-support.ts';
import { moveLegacyRows } from '../../worker/local-data.ts';
import { uniqueName } from './helpers.ts';
import { MemoryKeyFile } from './memory-key-file.ts';

// The child's content at rest: what IndexedDB itself holds (read here without the middleware, as a
// look at the disk would) against what the app reads through it.

const WORDS = 'Min pappa slår mig';
const open: Dexie[] = [];
afterEach(async () => {
  for (const db of open.splice(0)) await db.delete();
});

function databases() {
  const name = uniqueName('at-rest-data');
  const keyFile = new MemoryKeyFile();
  const legacyName = uniqueName('at-rest-legacy-key');
  const writer = new AtRestKey(keyFile, legacyName);
  const db = new PortalDb(name, undefined, writer);
  // The same database without the middleware: the rows as stored.
  const raw = new PortalDb(name);
  open.push(db, raw);
  return { db, raw, name, keyFile, legacyName, writer };
}

function message(key: string, text: string, loggedDate = '2026-11-28T10:00:00.000Z'): ChatMessageRow {
  return {
    key,
    id: null,
    clientId: key,
    conversation: 7,
    authorKind: 'contact',
    authorName: 'Alva',
    message: text,
    loggedDate,
    sendStatus: 'offline',
  } as unknown as ChatMessageRow;
}

function outboxRow(clientId: string, text: string): OutboxRow {
  return {
    clientId,
    kind: 'mail',
    path: '/portal/mail',
    body: { subject: 'Hemma', text },
    orderKey: clientId,
    status: 'sending',
    attempts: 0,
    createdAt: 1,
    nextAttemptAt: 1,
  };
}

describe('content sealed at rest', () => {
  it('stores no words in the clear, only the fields IndexedDB finds rows by', async () => {
    const { db, raw } = databases();
    await db.chatMessages.put(message('a', WORDS));
    const stored = JSON.stringify(await raw.chatMessages.toArray());
    expect(stored).not.toContain(WORDS);
    expect(stored).not.toContain('Alva');
    const [row] = (await raw.chatMessages.toArray()) as unknown as Array<Record<string, unknown>>;
    expect(row).toMatchObject({
      key: 'a',
      conversation: 7,
      clientId: 'a',
      loggedDate: '2026-11-28T10:00:00.000Z',
    });
    expect(row).not.toHaveProperty('message');
    expect(await db.chatMessages.get('a')).toEqual(message('a', WORDS));
    // Indexes still answer: a compound range and an equality.
    expect(
      await db.chatMessages
        .where('[conversation+loggedDate]')
        .between([7, Dexie.minKey], [7, Dexie.maxKey])
        .toArray(),
    ).toEqual([message('a', WORDS)]);
  });

  it('keeps a read-then-write transaction alive across the crypto, and cursors (filter, modify) see plain rows', async () => {
    const { db } = databases();
    await db.outbox.bulkPut([outboxRow('1', `${WORDS} 1`), outboxRow('2', `${WORDS} 2`)]);
    await db.transaction('rw', db.outbox, db.chatMessages, async () => {
      const row = await db.outbox.get('1');
      await db.chatMessages.put(message('m', (row!.body as { text: string }).text));
      await db.outbox.put({ ...row!, attempts: 3 });
    });
    expect((await db.outbox.get('1'))!.attempts).toBe(3);
    expect((await db.chatMessages.get('m'))!.message).toBe(`${WORDS} 1`);
    await db.outbox
      .where('status')
      .equals('sending')
      .filter((r) => (r.body as { text: string }).text.endsWith('2'))
      .modify({ status: 'queued' });
    expect(
      (await db.outbox.orderBy('clientId').toArray()).map((r) => [r.clientId, r.status, r.body]),
    ).toEqual([
      ['1', 'sending', { subject: 'Hemma', text: `${WORDS} 1` }],
      ['2', 'queued', { subject: 'Hemma', text: `${WORDS} 2` }],
    ]);
    let seen = 0;
    await db.outbox.each((r) => {
      seen += (r.body as { text: string }).text.startsWith(WORDS) ? 1 : 0;
    });
    expect(seen).toBe(2);
  });

  it('leaves plain the tables the first screen and the public content need', async () => {
    const { db, raw } = databases();
    await db.session.put({ id: 'current', status: 'authenticated', changedAt: 1 });
    expect(await raw.session.get('current')).toEqual({
      id: 'current',
      status: 'authenticated',
      changedAt: 1,
    });
  });

  it('answers live queries with plain rows', async () => {
    const { db } = databases();
    const seen: string[][] = [];
    const subscription = liveQuery(() => db.chatMessages.toArray()).subscribe((rows) =>
      seen.push(rows.map((r) => r.message)),
    );
    await db.chatMessages.put(message('a', WORDS));
    await expect.poll(() => seen.at(-1)).toEqual([WORDS]);
    subscription.unsubscribe();
  });

  it('reads nothing once the key file is shredded, and a new key seals what comes after', async () => {
    const { db, raw, name, keyFile, writer } = databases();
    await db.chatMessages.put(message('a', WORDS));
    const key = new AtRestKey(keyFile);
    const reader = new PortalDb(name, undefined, key);
    open.push(reader);
    expect((await reader.chatMessages.get('a'))!.message).toBe(WORDS);

    // The worker's sign-out: the key it writes with is shredded, its copy dropped.
    await writer.destroy();
    expect(keyFile.holdsKey).toBe(false);
    // A context that opens the rows afresh finds no key; one that read it drops its copy when told
    // (a tab hears of every sign-out: worker/client/connect.ts).
    const fresh = new PortalDb(name, undefined, new AtRestKey(keyFile));
    open.push(fresh);
    expect(await fresh.chatMessages.toArray()).toEqual([]);
    key.forget();
    expect(await reader.chatMessages.get('a')).toBeUndefined();
    expect(await raw.chatMessages.count()).toBe(1);

    // Nothing is written after the shred (a write that was under way as the session ended)...
    await expect(db.chatMessages.put(message('late', WORDS))).rejects.toThrow();
    expect(keyFile.holdsKey).toBe(false);
    expect(await raw.chatMessages.count()).toBe(1);
    // ...until a sign-in: the next session's key; the reader meets a key id it does not know and
    // reads the file again.
    writer.allowNewKey();
    await db.chatMessages.put(message('b', 'Efter'));
    expect((await reader.chatMessages.toArray()).map((r) => r.message)).toEqual(['Efter']);
    expect((await fresh.chatMessages.toArray()).map((r) => r.message)).toEqual(['Efter']);
    expect(await raw.chatMessages.count()).toBe(2);
  });

  it('keeps the key only as a non-extractable CryptoKey, and one key when two workers write at once', async () => {
    const keyFile = new MemoryKeyFile();
    const [a, b] = await Promise.all([
      new AtRestKey(keyFile).forWriting(),
      new AtRestKey(keyFile).forWriting(),
    ]);
    expect(a.keyId).toBe(b.keyId);
    expect(a.keyId).toHaveLength(KEY_ID_CHARS);
    expect(a.key.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('raw', a.key)).rejects.toThrow();
  });

  it('opens a read of many rows in one batch: one key lookup, each row decrypted once', async () => {
    const { db, name, keyFile } = databases();
    const rows = Array.from({ length: 300 }, (_, i) =>
      message(`m${i}`, `${WORDS} ${i}`, new Date(Date.UTC(2026, 10, 28, 10, 0, i)).toISOString()),
    );
    await db.chatMessages.bulkPut(rows);
    class CountingKey extends AtRestKey {
      lookups = 0;
      override current(keyId?: string) {
        this.lookups += 1;
        return super.current(keyId);
      }
    }
    const key = new CountingKey(keyFile);
    const reader = new PortalDb(name, undefined, key);
    open.push(reader);
    const decrypt = crypto.subtle.decrypt.bind(crypto.subtle);
    let decrypted = 0;
    const spy = Object.assign(crypto.subtle, {
      decrypt: (...args: Parameters<SubtleCrypto['decrypt']>) => {
        decrypted += 1;
        return decrypt(...args);
      },
    });
    try {
      const range = () =>
        reader.chatMessages.where('[conversation+loggedDate]').between([7, Dexie.minKey], [7, Dexie.maxKey]);
      expect((await range().toArray()).map((r) => r.message)).toEqual(rows.map((r) => r.message));
      expect(key.lookups).toBe(1);
      expect(decrypted).toBe(300);
      // Read again (a live query's next run): nothing is decrypted twice.
      const keys = (await range().reverse().limit(50).primaryKeys()) as string[];
      expect((await reader.chatMessages.bulkGet(keys)).map((r) => r!.key)).toEqual(keys);
      expect(decrypted).toBe(300);
      expect(key.lookups).toBe(2);
      // Two reads at once in a context that opened nothing yet (a read ahead of a window, then the
      // window's own): each row is decrypted once.
      const twice = new PortalDb(name, undefined, new AtRestKey(keyFile));
      open.push(twice);
      const all = () =>
        twice.chatMessages
          .where('[conversation+loggedDate]')
          .between([7, Dexie.minKey], [7, Dexie.maxKey])
          .toArray();
      const [a, b] = await Promise.all([all(), all()]);
      expect(a).toHaveLength(300);
      expect(b).toEqual(a);
      expect(decrypted).toBe(600);
    } finally {
      spy.decrypt = decrypt;
    }
  });

  it('moves the rows of the last design (a key in IndexedDB) under the file key, then deletes that key', async () => {
    const { db, raw, name, keyFile, legacyName } = databases();
    // The last design: a non-extractable key in its own database, rows sealed the same way.
    const legacy = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
      'encrypt',
      'decrypt',
    ]);
    const legacyDb = new Dexie(legacyName);
    legacyDb.version(1).stores({ keys: 'id' });
    await legacyDb.table('keys').put({ id: 'current', keyId: 'oldkey01', key: legacy });
    legacyDb.close();
    const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
    const row = message('old', WORDS);
    const cipher = new Uint8Array(
      await crypto.subtle.encrypt(
        { name: 'AES-GCM', iv },
        legacy,
        new TextEncoder().encode(JSON.stringify(row)),
      ),
    );
    const chars = (bytes: Uint8Array) => String.fromCharCode(...bytes);
    await raw.chatMessages.put({
      key: 'old',
      conversation: 7,
      clientId: 'old',
      loggedDate: row.loggedDate,
      $sealed: `oldkey01${chars(iv)}${chars(cipher)}`,
    } as unknown as ChatMessageRow);

    // Readable under the old key until moved, by every context (a tab reads while the worker moves).
    expect((await db.chatMessages.get('old'))!.message).toBe(WORDS);
    const key = new AtRestKey(keyFile, legacyName);
    expect(await key.hasLegacy()).toBe(true);
    await moveLegacyRows(key, [new PortalDb(name, undefined, key)]);

    expect(await key.hasLegacy()).toBe(false);
    const stored = (await raw.chatMessages.get('old')) as unknown as { $sealed: string };
    const fileKey = await key.current();
    expect(stored.$sealed.slice(0, KEY_ID_CHARS)).toBe(fileKey!.keyId);
    const reader = new PortalDb(name, undefined, new AtRestKey(keyFile, legacyName));
    open.push(reader);
    expect(await reader.chatMessages.get('old')).toEqual(row);
  });
});
