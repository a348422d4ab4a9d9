import 'fake-indexeddb/auto';
import Dexie, { liveQuery } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { AtRestKey } from '../../worker/client/at-rest.ts';
import { PortalDb, type OutboxRow } from '../../worker/client/db.ts';
import type { ChatMessageRow } from '../../worker/client/group-support.ts';
import { uniqueName } from './helpers.ts';

// The child's content at rest: what IndexedDB itself holds (read here without the middleware, as a
// look at the disk would) against what the app reads through it.

const WORDS = 'Min pappa slår mig';
const open: Dexie[] = [];
afterEach(async () => {
  for (const db of open.splice(0)) await db.delete();
});

function databases() {
  const name = uniqueName('at-rest-data');
  const keyName = uniqueName('at-rest-key');
  const db = new PortalDb(name, undefined, new AtRestKey(keyName));
  // The same database without the middleware: the rows as stored.
  const raw = new PortalDb(name);
  const keyDb = new Dexie(keyName);
  open.push(db, raw);
  return { db, raw, name, keyName, keyDb };
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

  it('reads nothing once the key is destroyed, and a new key seals what comes after', async () => {
    const { db, raw, name, keyName } = databases();
    await db.chatMessages.put(message('a', WORDS));
    const key = new AtRestKey(keyName);
    const reader = new PortalDb(name, undefined, key);
    open.push(reader);
    expect((await reader.chatMessages.get('a'))!.message).toBe(WORDS);

    await new AtRestKey(keyName).destroy();
    // Every holder of the key forgets it with the database (versionchange), readers included.
    expect(await reader.chatMessages.get('a')).toBeUndefined();
    expect(await reader.chatMessages.toArray()).toEqual([]);
    expect(await raw.chatMessages.count()).toBe(1);

    await db.chatMessages.put(message('b', 'Efter'));
    expect((await reader.chatMessages.toArray()).map((r) => r.message)).toEqual(['Efter']);
  });

  it('makes one key when two workers write at once', async () => {
    const keyName = uniqueName('at-rest-key');
    const [a, b] = await Promise.all([
      new AtRestKey(keyName).forWriting(),
      new AtRestKey(keyName).forWriting(),
    ]);
    expect(a.keyId).toBe(b.keyId);
    expect(a.key.extractable).toBe(false);
    await new AtRestKey(keyName).destroy();
  });
});
