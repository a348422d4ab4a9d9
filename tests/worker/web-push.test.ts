import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { api } from '../../harness/test-server.ts';
import { signedInWorker } from './group/group-helpers.ts';
import { uniqueName, valueOf } from './helpers.ts';
import { useWorkerTestServer } from './worker-fixture.ts';

/**
 * Web Push, the worker's part: the real worker core signed in at the real server. The push calls
 * themselves are answered here as the contract says (contract/push.ts), so this tests the worker's
 * side whatever the server's routes do.
 */
const env = useWorkerTestServer();
const PASSWORD = 'blå-ballong-73';
const KEY = 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U';

interface Call {
  method: string;
  path: string;
  body: unknown;
  authorization: string | null;
}

/** A signed-in child whose worker's push calls are recorded; `deleteFails` makes the DELETE fail. */
async function child({ deleteFails = false } = {}) {
  const username = uniqueName('push').slice(0, 30).toLowerCase();
  const res = await api(env.server.url, '/portal/api/accounts/registercontact', {
    body: { username, password: PASSWORD, properties: { birthYear: '2012', gender: 'female' } },
  });
  expect(res.status).toBe(201);
  const calls: Call[] = [];
  const fetchRecording: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = init?.method ?? 'GET';
    const headers = new Headers(init?.headers);
    if (url.pathname.startsWith('/portal/push/')) {
      calls.push({
        method,
        path: url.pathname,
        body:
          typeof init?.body === 'string' && url.pathname.startsWith('/portal/')
            ? JSON.parse(init.body)
            : null,
        authorization: headers.get('Authorization'),
      });
    }
    if (url.pathname === '/portal/push/key') return Response.json({ publicKey: KEY });
    if (url.pathname === '/portal/push/subscriptions') {
      if (method === 'DELETE' && deleteFails) throw new TypeError('fetch failed');
      return new Response(null, { status: 204 });
    }
    return fetch(input, init);
  };
  const fixture = await signedInWorker(env.server, username, PASSWORD, { fetch: fetchRecording });
  env.fixtures.push(fixture);
  return { fixture, calls };
}

const subscription = {
  endpoint: 'https://fcm.googleapis.com/fcm/send/abc123',
  expirationTime: null,
  keys: {
    p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
    auth: 'tBHItJI5svbpez7KI4CCXg',
  },
};

describe('Web Push in the worker', () => {
  it("gives the server's key and posts the page's subscription with the child's token", async () => {
    const { fixture, calls } = await child();
    expect(valueOf(await fixture.worker.commands.pushKey())).toBe(KEY);
    // A browser may add fields of its own: only the contract's go out.
    const saved = await fixture.worker.commands.savePushSubscription({ ...subscription, extra: 1 } as never);
    expect(saved).toEqual({ ok: true, value: undefined });
    const post = calls.find((c) => c.method === 'POST');
    expect(post).toEqual({
      method: 'POST',
      path: '/portal/push/subscriptions',
      body: subscription,
      authorization: expect.stringMatching(/^Bearer .+/) as unknown as string,
    });
  });

  it('deletes the subscription at sign-out (a quick exit in shared-device mode too), while the token works', async () => {
    const { fixture, calls } = await child();
    await fixture.worker.commands.logout('user');
    const remove = calls.filter((c) => c.method === 'DELETE');
    expect(remove).toEqual([
      {
        method: 'DELETE',
        path: '/portal/push/subscriptions',
        body: null,
        // Sent before the revocation: the token still went with it.
        authorization: expect.stringMatching(/^Bearer .+/) as unknown as string,
      },
    ]);
    expect((await fixture.db.session.get('current'))?.status).toBe('anonymous');
  });

  it('signs out all the same when the delete fails (the server drops it with the login)', async () => {
    const { fixture, calls } = await child({ deleteFails: true });
    await fixture.worker.commands.logout('user');
    expect(calls.some((c) => c.method === 'DELETE')).toBe(true);
    expect((await fixture.db.session.get('current'))?.status).toBe('anonymous');
  });
});
