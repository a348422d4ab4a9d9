import { describe, expect, it } from 'vitest';
import { TabRegistry } from '../../../worker/tabs/tab-registry.ts';
import { isNewerBuild, watchBuilds } from '../../../worker/tabs/build-watch.ts';

describe('tab registry', () => {
  it('releases what a closed tab left open, once per open, and tells who else still holds it', async () => {
    const gone = new Map<string, () => void>();
    const released: string[] = [];
    const closed: string[] = [];
    const tabs = new TabRegistry(
      (key) => released.push(key),
      (tabId) => new Promise<void>((resolve) => gone.set(tabId, resolve)),
      (tabId) => closed.push(tabId),
    );
    tabs.add('a');
    tabs.add('b');
    tabs.hold('a', 'openGroupChat:7');
    tabs.hold('a', 'openGroupChat:7');
    tabs.hold('a', 'subscribe:Meeting:1');
    tabs.hold('b', 'subscribe:Meeting:1');
    tabs.hold('b', 'subscribe:Meeting:2');
    expect(tabs.release('b', 'subscribe:Meeting:2')).toBe(true);
    expect(tabs.release('b', 'subscribe:Meeting:2')).toBe(false);
    expect(tabs.isHeld('subscribe:Meeting:2')).toBe(false);
    gone.get('a')!();
    await Promise.resolve();
    await Promise.resolve();
    expect(tabs.has('a')).toBe(false);
    expect(released).toEqual(['openGroupChat:7', 'openGroupChat:7', 'subscribe:Meeting:1']);
    // Told once the tab is gone (system notices then forget whether it was visible).
    expect(closed).toEqual(['a']);
    expect(tabs.isHeld('subscribe:Meeting:1')).toBe(true);
    gone.get('b')!();
    await Promise.resolve();
    await Promise.resolve();
    expect(released.slice(3)).toEqual(['subscribe:Meeting:1']);
    expect(tabs.size).toBe(0);
  });
});

describe('build watch', () => {
  it('treats a later build id as newer', () => {
    expect(isNewerBuild('20261122210000', '20261122200000')).toBe(true);
    expect(isNewerBuild('20261122200000', '20261122210000')).toBe(false);
    expect(isNewerBuild('x', 'x')).toBe(false);
  });

  it('an old worker hears the new build; the new one answers an old announcement', async () => {
    const channelA = new BroadcastChannel('portal-build-test');
    const channelB = new BroadcastChannel('portal-build-test');
    const newer: string[] = [];
    const heard = new Promise<void>((resolve) =>
      watchBuilds(channelA, '20260101000000', (id) => {
        newer.push(id);
        resolve();
      }),
    );
    watchBuilds(channelB, '20270101000000', () => newer.push('wrong'));
    await heard;
    expect(newer).toEqual(['20270101000000']);
    channelA.close();
    channelB.close();
  });
});
