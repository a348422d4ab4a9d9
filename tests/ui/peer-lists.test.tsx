import './page-dom.ts';
import 'fake-indexeddb/auto';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MyPeerPosts } from '../../src/peers/my-peer-posts.tsx';
import { api } from '../../harness/test-server.ts';
import { useWorkerTestServer } from '../worker/worker-fixture.ts';
import { connectUi, renderWithData, type UiConnection } from './worker-connection.tsx';

/**
 * 'Mina inlägg' in Peers against the real worker core and a real Peers server: a load without a
 * network shows the notice over the cached rows, and the list loads again once the line is back.
 */
const env = useWorkerTestServer({ variant: 'peers' });
const connections: UiConnection[] = [];
afterEach(async () => {
  cleanup();
  await Promise.all(connections.splice(0).map((c) => c.dispose()));
});

const PASSWORD = 'blå-ballong-73';
const OFFLINE_NOTICE = 'Du verkar vara offline. Det du ser kan vara gammalt.';
let children = 0;

/** A fresh young person on my pages' 'Mina inlägg', loaded while the network was down. */
async function myPostsLoadedOffline() {
  const username = `ung-lista-${++children}`;
  const res = await api(env.server.url, '/portal/api/accounts/registercontact', {
    body: { username, password: PASSWORD },
    variant: 'Peers',
  });
  expect(res.status).toBe(201);
  const network = { up: true };
  const connection = await connectUi(env.server, username, PASSWORD, {
    fetch: (input, init) =>
      network.up || !String(input).includes('/portal/api/peers/')
        ? fetch(input, init)
        : Promise.reject(new TypeError('Failed to fetch')),
  });
  connections.push(connection);
  network.up = false;
  renderWithData(env.server, connection, <MyPeerPosts />);
  expect((await screen.findByText(OFFLINE_NOTICE)).getAttribute('role')).toBe('status');
  const account = await env.server.ctx.db
    .selectFrom('accounts')
    .select('id')
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
  return { network, accountId: account.id };
}

describe('Mina inlägg when the line comes back', () => {
  it('loads again on the browser’s online event and takes the offline notice away', async () => {
    const { network } = await myPostsLoadedOffline();
    network.up = true;
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    await waitFor(() => expect(screen.queryByText(OFFLINE_NOTICE)).toBeNull());
  });

  it('loads again when the hub connection comes back, with no online event', async () => {
    const { network, accountId } = await myPostsLoadedOffline();
    network.up = true;
    // The server drops the account's hub connection; the worker connects again by itself.
    await env.server.ctx.hub.disconnectAccount(accountId);
    await waitFor(() => expect(screen.queryByText(OFFLINE_NOTICE)).toBeNull(), { timeout: 15_000 });
  });
});
