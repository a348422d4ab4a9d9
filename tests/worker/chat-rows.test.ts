import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationMessageWire } from '../../contract/conversations.ts';
import { AtRestKey } from '../../worker/base/at-rest.ts';
import { PortalDb } from '../../worker/base/db.ts';
import { applyMessage, reconcileMessages } from '../../worker/sync/chat-rows.ts';
import { uniqueName } from './helpers.ts';
import { MemoryKeyFile } from './memory-key-file.ts';

const message = (id: number, text: string): ConversationMessageWire => ({
  id,
  conversation: 7,
  message: text,
  loggedDate: new Date(Date.UTC(2026, 10, 25, 12, 0, id)).toISOString(),
  authorKind: 'agent',
  contactId: null,
  contactName: null,
  agentId: 3,
  agentName: 'Kurator',
  createdAfterClosedConversation: false,
});

let db: PortalDb | null = null;
afterEach(async () => {
  await db?.delete();
  db = null;
});

/** Counts the rows written to chatMessages (created or changed) from now on. */
function countWrites(target: PortalDb) {
  const written: string[] = [];
  target.chatMessages.hook('creating', (key) => void written.push(String(key)));
  target.chatMessages.hook('updating', (_changes, key) => void written.push(String(key)));
  return written;
}

describe('chat rows', () => {
  it('writes only what a refetch or an event changed, so an unchanged answer wakes no live query', async () => {
    db = new PortalDb(uniqueName('chat-rows'));
    const list = Array.from({ length: 50 }, (_, i) => message(i + 1, `Meddelande ${i + 1}`));
    await reconcileMessages(db, 7, list);
    expect(await db.chatMessages.count()).toBe(50);

    const written = countWrites(db);
    await reconcileMessages(db, 7, list);
    await applyMessage(db, list[10]!);
    expect(written).toEqual([]);

    // One changed text and one new message are what is written.
    const changed = [...list.slice(0, 49), { ...list[49]!, message: 'Ändrat' }, message(51, 'Ny')];
    await reconcileMessages(db, 7, changed);
    expect(written).toEqual(['50', '51']);
    await applyMessage(db, message(52, 'Från händelsen'));
    expect(written).toEqual(['50', '51', '52']);
    expect((await db.chatMessages.get('50'))?.message).toBe('Ändrat');
  });

  it('opens, to merge a catch-up, only the rows it fetched and the ones this device has not sent', async () => {
    const name = uniqueName('chat-rows-sealed');
    const keyFile = new MemoryKeyFile();
    const list = Array.from({ length: 2000 }, (_, i) => message(i + 1, `Meddelande ${i + 1}`));
    const writer = new PortalDb(name, undefined, new AtRestKey(keyFile));
    await reconcileMessages(writer, 7, list);
    await writer.chatMessages.put({
      key: 'local:k1',
      id: null,
      clientId: 'k1',
      sendStatus: 'offline',
      conversation: 7,
      message: 'Hallå?',
      loggedDate: new Date().toISOString(),
      authorKind: 'contact',
      contactId: 9,
      contactName: null,
      agentId: null,
      agentName: null,
      createdAfterClosedConversation: false,
    });
    writer.close();
    // A worker that starts on what another left (nothing opened yet in its memory), as after an outage.
    db = new PortalDb(name, undefined, new AtRestKey(keyFile));
    const decrypt = crypto.subtle.decrypt.bind(crypto.subtle);
    let opened = 0;
    crypto.subtle.decrypt = (...args: Parameters<SubtleCrypto['decrypt']>) => {
      opened += 1;
      return decrypt(...args);
    };
    try {
      const missed = [list[1999]!, message(2001, 'Missat 1'), message(2002, 'Missat 2')];
      await reconcileMessages(db, 7, missed, { partial: true });
      expect(opened).toBeLessThanOrEqual(missed.length + 1);
      expect((await db.chatMessages.get('2002'))?.message).toBe('Missat 2');
      expect(await db.chatMessages.count()).toBe(2003);
    } finally {
      crypto.subtle.decrypt = decrypt;
    }
  });
});
