import { describe, expect, it, vi } from 'vitest';
import { threadNotice, yourTurnNotice } from '../../contract/system-notices.ts';
import {
  openNotice,
  parsePushNotice,
  showPushNotice,
  type ClickScope,
  type PushScope,
} from '../../sw/push.ts';

/** The service worker's scope with `windows` open (each a visibility), recording what it shows. */
function scope(windows: DocumentVisibilityState[]) {
  const shown: { title: string; options: NotificationOptions }[] = [];
  const matchAll = vi.fn(async () => windows.map((visibilityState) => ({ visibilityState })));
  const fake = {
    clients: { matchAll },
    registration: {
      showNotification: async (title: string, options: NotificationOptions = {}) => {
        shown.push({ title, options });
      },
    },
  };
  return { scope: fake as unknown as PushScope, shown, matchAll };
}

describe('a push', () => {
  it('with no window of the app open, is shown: the title alone, the tag, the place a click leads', async () => {
    const { scope: sw, shown, matchAll } = scope([]);
    expect(await showPushNotice(sw, JSON.stringify(yourTurnNotice(12)))).toBe(true);
    expect(matchAll).toHaveBeenCalledWith({ type: 'window', includeUncontrolled: true });
    expect(shown).toEqual([
      {
        title: 'Det är din tur',
        options: { tag: 'conversation-12', data: { url: '/start#chatt' }, renotify: true },
      },
    ]);
    expect(shown[0]!.options).not.toHaveProperty('body');
    expect(shown[0]!.options).not.toHaveProperty('icon');
  });

  it('with only hidden windows, is shown; with a window in view, is not (the tab shows its own)', async () => {
    const hidden = scope(['hidden', 'hidden']);
    expect(await showPushNotice(hidden.scope, JSON.stringify(threadNotice({ peers: false }, 7)))).toBe(true);
    expect(hidden.shown.map((s) => s.title)).toEqual(['Du har ett nytt meddelande']);

    const visible = scope(['hidden', 'visible']);
    expect(await showPushNotice(visible.scope, JSON.stringify(yourTurnNotice(12)))).toBe(false);
    expect(visible.shown).toEqual([]);
  });

  it.each([
    ['no payload', undefined],
    ['not JSON', 'Det är din tur'],
    ['an array', '[]'],
    ['another title', JSON.stringify({ ...yourTurnNotice(1), title: 'Kim har svarat: kom tillbaka' })],
    ['no tag', JSON.stringify({ title: 'Det är din tur', url: '/start#chatt' })],
    ['a tag not a string', JSON.stringify({ ...yourTurnNotice(1), tag: 1 })],
    ['another site', JSON.stringify({ ...yourTurnNotice(1), url: 'https://example.com/' })],
    ['another site without a scheme', JSON.stringify({ ...yourTurnNotice(1), url: '//example.com/start' })],
    ['a relative url', JSON.stringify({ ...yourTurnNotice(1), url: 'start' })],
  ])('is ignored with %s', async (_, payload) => {
    const { scope: sw, shown } = scope([]);
    expect(await showPushNotice(sw, payload)).toBe(false);
    expect(shown).toEqual([]);
  });

  it('keeps only the title, tag and url of a payload with more in it', () => {
    const notice = { ...yourTurnNotice(3), body: 'Hej från Kim', icon: '/logo.png' };
    expect(parsePushNotice(JSON.stringify(notice))).toEqual(yourTurnNotice(3));
  });
});

describe('a click on a notice', () => {
  function clients(windows: { focused: boolean }[]) {
    const tabs = windows.map((w) => ({ ...w, postMessage: vi.fn(), focus: vi.fn(async () => undefined) }));
    const openWindow = vi.fn(async () => null);
    const fake = { clients: { matchAll: vi.fn(async () => tabs), openWindow } };
    return { scope: fake as unknown as ClickScope, tabs, openWindow };
  }

  it('with the app closed, opens its place in a new window', async () => {
    const { scope: sw, openWindow } = clients([]);
    expect(await openNotice(sw, { url: '/start#chatt' })).toBe('window');
    expect(openWindow).toHaveBeenCalledWith('/start#chatt');
  });

  it('with the app open, moves the focused tab there and brings it forward', async () => {
    const { scope: sw, tabs, openWindow } = clients([{ focused: false }, { focused: true }]);
    expect(await openNotice(sw, { url: '/mina-sidor/inlagg/7' })).toBe('tab');
    expect(tabs[1]!.postMessage).toHaveBeenCalledWith({ type: 'open-notice', url: '/mina-sidor/inlagg/7' });
    expect(tabs[1]!.focus).toHaveBeenCalled();
    expect(tabs[0]!.postMessage).not.toHaveBeenCalled();
    expect(openWindow).not.toHaveBeenCalled();
  });

  it('never leads outside the app', async () => {
    const { scope: sw, openWindow } = clients([]);
    expect(await openNotice(sw, { url: '//example.com/' })).toBeNull();
    // Paths that a browser resolves to another site: a backslash, or a tab or newline it removes.
    expect(await openNotice(sw, { url: '/\\example.com/' })).toBeNull();
    expect(await openNotice(sw, { url: '/\t/example.com/' })).toBeNull();
    expect(await openNotice(sw, { url: '/\n/example.com/' })).toBeNull();
    expect(await openNotice(sw, null)).toBeNull();
    expect(openWindow).not.toHaveBeenCalled();
  });
});
