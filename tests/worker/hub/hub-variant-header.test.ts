import 'fake-indexeddb/auto';
import type { IncomingMessage } from 'node:http';
import { HttpTransportType } from '@microsoft/signalr';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { login } from '../../../harness/test-server.ts';
import { signedInWorker } from '../group/group-helpers.ts';
import { waitForQuery } from '../helpers.ts';
import { useWorkerTestServer, type WorkerFixture } from '../worker-fixture.ts';

/**
 * SPEC §1: every request names the app variant in `X-App-Variant`, the hub's too. The worker's
 * SignalR client sends it on negotiate and on every long-polling request; a browser's WebSocket
 * cannot carry headers of ours, so the upgrade request is the one exception, and the server takes
 * it without the header (client-kit/hub/build-hub-connection.ts).
 */
const env = useWorkerTestServer();
const HUB = '/hubs/portalaccountevents';

interface Seen {
  method: string;
  path: string;
  variant: string | undefined;
}

/** The hub requests as the real server receives them, HTTP and upgrades alike. */
const seen: Seen[] = [];
const record = (req: IncomingMessage) => {
  if (!req.url?.startsWith(HUB)) return;
  const variant = req.headers['x-app-variant'];
  seen.push({
    method: req.method ?? '',
    path: req.url.split('?')[0]!,
    variant: typeof variant === 'string' ? variant : undefined,
  });
};
beforeAll(() => {
  env.server.app.server.on('request', record);
  env.server.app.server.on('upgrade', record);
  return () => {
    env.server.app.server.off('request', record);
    env.server.app.server.off('upgrade', record);
  };
});
beforeEach(() => {
  seen.length = 0;
});

async function connected(transport: HttpTransportType): Promise<WorkerFixture> {
  const fixture = await signedInWorker(env.server, 'demo', 'demo-losenord', { transport });
  env.fixtures.push(fixture);
  await waitForQuery(
    () => fixture.db.runtime.get('current'),
    (row) => row?.hubState === 'Connected',
  );
  return fixture;
}

describe('the variant header on the hub requests the worker makes', () => {
  it('is on negotiate and on every long-polling poll and send', async () => {
    const { worker, db } = await connected(HttpTransportType.LongPolling);
    const profile = (await db.profile.get('current'))!;
    // An invocation: the client POSTs it on the long-polling transport.
    expect(await worker.subscribe(`Contact:${profile.contactId}`)).toBe(true);

    const kinds = new Set(seen.map((s) => `${s.method} ${s.path}`));
    expect(kinds).toEqual(new Set([`POST ${HUB}/negotiate`, `GET ${HUB}`, `POST ${HUB}`]));
    expect(seen.filter((s) => s.variant !== 'Barn')).toEqual([]);
  });

  it('is on negotiate over WebSockets; the upgrade is the exception the server accepts without it', async () => {
    await connected(HttpTransportType.WebSockets);
    expect(seen.filter((s) => s.path === `${HUB}/negotiate`)).toEqual([
      { method: 'POST', path: `${HUB}/negotiate`, variant: 'Barn' },
    ]);
    expect(seen.filter((s) => s.path === HUB).map((s) => s.method)).toEqual(['GET']);
    seen.length = 0;

    // A browser's WebSocket: the token in the query, no header of ours.
    const { access_token } = await login(env.server.url, 'demo', 'demo-losenord');
    const negotiate = await fetch(`${env.server.url}${HUB}/negotiate?negotiateVersion=1`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${access_token}`, 'X-App-Variant': 'Barn' },
    });
    const { connectionToken } = (await negotiate.json()) as { connectionToken: string };
    const query = new URLSearchParams({ id: connectionToken, access_token });
    const socket = new WebSocket(`${env.server.url.replace('http', 'ws')}${HUB}?${query}`);
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('open', () => resolve());
        socket.once('error', reject);
      });
      const answer = new Promise<string>((resolve) =>
        socket.once('message', (data) => resolve(String(data))),
      );
      socket.send(`${JSON.stringify({ protocol: 'json', version: 1 })}\x1e`);
      expect(await answer).toBe('{}\x1e');
    } finally {
      socket.close();
    }
    expect(seen.find((s) => s.path === HUB)).toEqual({ method: 'GET', path: HUB, variant: undefined });
  });
});
