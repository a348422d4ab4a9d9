import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  base64UrlBytes,
  dropPushSubscription,
  keepPushSubscription,
  type PushApi,
  type PushBrowser,
} from '../../src/pwa/web-push.ts';

/**
 * Web Push, the page's part (src/pwa/web-push.ts), with a fake PushManager: the browser's own needs
 * a push service, which a test cannot reach (e2e/get-told-it-is-my-turn-with-the-app-closed.spec.ts
 * shows the app staying fine when the real one fails).
 */
const KEY_A = 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U';
const KEY_B = 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM';

let made = 0;
/** A subscription as the browser gives it, made for `key`. */
function fakeSubscription(key: string, onUnsubscribe: () => void) {
  made += 1;
  const endpoint = `https://fcm.googleapis.com/fcm/send/${made}`;
  return {
    endpoint,
    options: { applicationServerKey: base64UrlBytes(key).buffer, userVisibleOnly: true },
    unsubscribe: vi.fn(async () => {
      onUnsubscribe();
      return true;
    }),
    toJSON: () => ({
      endpoint,
      expirationTime: null,
      keys: { p256dh: `p256dh-${made}`, auth: `auth-${made}` },
    }),
  } as unknown as PushSubscription & { unsubscribe: ReturnType<typeof vi.fn> };
}

/** The browser with a fake PushManager holding at most one subscription, and the worker's commands. */
function setUp({
  permission = 'granted' as NotificationPermission,
  key = KEY_A,
  failSubscribe = false,
} = {}) {
  let current: ReturnType<typeof fakeSubscription> | null = null;
  const pushManager = {
    getSubscription: vi.fn(async () => current),
    subscribe: vi.fn(async (options: PushSubscriptionOptionsInit) => {
      if (failSubscribe) throw new DOMException('Registration failed - push service error', 'AbortError');
      const bytes = options.applicationServerKey as Uint8Array;
      const made = fakeSubscription(Buffer.from(bytes).toString('base64url'), () => (current = null));
      current = made;
      return made;
    }),
  };
  const registration = { pushManager };
  const browser: PushBrowser = {
    ready: async () => registration,
    current: async () => registration,
    permission: () => permission,
  };
  const saved: unknown[] = [];
  const api = {
    pushKey: vi.fn(async () => ({ ok: true as const, value: key })),
    savePushSubscription: vi.fn(async (body: unknown) => {
      saved.push(body);
      return { ok: true as const, value: undefined };
    }),
  } as unknown as PushApi & { pushKey: ReturnType<typeof vi.fn> };
  return {
    browser,
    api,
    pushManager,
    saved,
    current: () => current,
    setCurrent: (s: ReturnType<typeof fakeSubscription> | null) => (current = s),
  };
}

afterEach(() => vi.restoreAllMocks());

describe('the page subscribes to Web Push', () => {
  it("with the permission given, with the server's key, and posts the subscription through the worker", async () => {
    const t = setUp();
    await keepPushSubscription(t.api, t.browser);
    expect(t.pushManager.subscribe).toHaveBeenCalledTimes(1);
    const options = t.pushManager.subscribe.mock.calls[0]![0];
    expect(options.userVisibleOnly).toBe(true);
    expect(Buffer.from(options.applicationServerKey as Uint8Array).toString('base64url')).toBe(KEY_A);
    expect(t.saved).toEqual([
      { endpoint: t.current()!.endpoint, expirationTime: null, keys: expect.any(Object) as unknown },
    ]);
  });

  it('keeps a subscription made for the same key, and posts it again (a new sign-in)', async () => {
    const t = setUp();
    await keepPushSubscription(t.api, t.browser);
    const first = t.current();
    await keepPushSubscription(t.api, t.browser);
    expect(t.pushManager.subscribe).toHaveBeenCalledTimes(1);
    expect(t.current()).toBe(first);
    expect(t.saved).toHaveLength(2);
  });

  it("drops a subscription made for another key (the server's key was rotated) and subscribes again", async () => {
    const t = setUp({ key: KEY_B });
    const old = fakeSubscription(KEY_A, () => t.setCurrent(null));
    t.setCurrent(old);
    await keepPushSubscription(t.api, t.browser);
    expect(old.unsubscribe).toHaveBeenCalledTimes(1);
    expect(t.pushManager.subscribe).toHaveBeenCalledTimes(1);
    expect(t.current()).not.toBe(old);
    expect(t.saved).toEqual([expect.objectContaining({ endpoint: t.current()!.endpoint })]);
  });

  it('does nothing without the permission', async () => {
    for (const permission of ['default', 'denied'] as const) {
      const t = setUp({ permission });
      await keepPushSubscription(t.api, t.browser);
      expect(t.api.pushKey).not.toHaveBeenCalled();
      expect(t.pushManager.subscribe).not.toHaveBeenCalled();
    }
  });

  it('fails quietly, with a warning, when no push service answers', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const t = setUp({ failSubscribe: true });
    await expect(keepPushSubscription(t.api, t.browser)).resolves.toBeUndefined();
    expect(t.saved).toEqual([]);
    expect(warn).toHaveBeenCalled();
  });
});

describe('the page drops the subscription at sign-out and quick exit', () => {
  it('asks the browser at once, before anything is awaited (the page may be gone next)', async () => {
    const t = setUp();
    await keepPushSubscription(t.api, t.browser);
    const kept = t.current()!;
    const dropping = dropPushSubscription(t.browser);
    expect(kept.unsubscribe).toHaveBeenCalledTimes(1);
    await dropping;
    expect(t.current()).toBeNull();
  });

  it("drops the registration's own subscription where this page never kept one", async () => {
    const t = setUp();
    const left = fakeSubscription(KEY_A, () => t.setCurrent(null));
    t.setCurrent(left);
    await dropPushSubscription(t.browser);
    expect(left.unsubscribe).toHaveBeenCalledTimes(1);
    expect(t.current()).toBeNull();
  });
});
