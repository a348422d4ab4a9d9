import { describe, expect, it } from 'vitest';
import { TabChats } from '../../../worker/tabs/tab-chats.ts';
import { TabRegistry } from '../../../worker/tabs/tab-registry.ts';

describe('group chats per tab', () => {
  it('closes the opens a closed tab left behind, and only those', async () => {
    const closes: number[] = [];
    const chats = new TabChats(async (id) => void closes.push(id));
    let goneA: () => void = () => undefined;
    const registry = new TabRegistry(
      (key) => void (TabChats.isChatKey(key) ? chats.tabGone(key) : undefined),
      (tabId) => new Promise<void>((resolve) => tabId === 'a' && (goneA = resolve)),
    );
    registry.add('a');
    registry.add('b');
    registry.subscribed('a', chats.opened('a', 7));
    registry.subscribed('a', chats.opened('a', 7));
    registry.subscribed('b', chats.opened('b', 7));
    expect(chats.closed('b', 7)).toBe(0);
    expect(chats.closed('b', 7)).toBeNull();
    goneA();
    await new Promise((r) => setImmediate(r));
    expect(closes).toEqual([7, 7]);
  });
});
