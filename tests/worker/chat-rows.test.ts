import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationMessageWire } from '../../contract/conversations.ts';
import { PortalDb } from '../../worker/client/db.ts';
import { applyMessage, reconcileMessages } from '../../worker/sync/chat-rows.ts';
import { uniqueName } from './helpers.ts';

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
});
