import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpTransportType } from '@microsoft/signalr';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { HubKeeper } from '../../client-kit/hub/hub-keeper.ts';
import { ManualClock } from '../worker/helpers.ts';

/**
 * A hub start made into a silently dead line hangs in its negotiate, and SignalR's own stop waits
 * for it (up to 100 s). The keeper lets go of a connection it gives up on with what it holds open,
 * or each such start keeps one of the browser's six connections to the server busy. The line here
 * is a server that takes every request and never answers, as a silently dead one does.
 */
interface Held {
  path: string;
  closed: Promise<void>;
}

let server: http.Server;
let url: string;
const held: Held[] = [];
const arrivals = new Set<() => void>();

beforeAll(async () => {
  server = http.createServer((req) => {
    held.push({ path: req.url ?? '', closed: new Promise((resolve) => req.socket.once('close', resolve)) });
    for (const arrived of [...arrivals]) arrived();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Resolves once `count` requests have reached the silent server. */
function requestsArrived(count: number): Promise<Held[]> {
  return new Promise((resolve) => {
    const check = () => {
      if (held.length < count) return;
      arrivals.delete(check);
      resolve(held.slice(0, count));
    };
    arrivals.add(check);
    check();
  });
}

it('a start given up on lets go of its negotiate at once, and so does stop', async () => {
  const clock = new ManualClock();
  const keeper = new HubKeeper({
    signalHubUrl: url,
    timer: clock,
    accessToken: async () => 'token',
    transport: HttpTransportType.WebSockets,
    onState: () => undefined,
    onEvent: () => undefined,
  });
  const started = keeper.start();
  const [first] = await requestsArrived(1);
  expect(first!.path).toMatch(/\/negotiate\?/);

  // The line was found dead: the hung start is dropped for a new one.
  const restarted = keeper.reconnectNow({ dead: true });
  const [, second] = await requestsArrived(2);
  expect(second!.path).toMatch(/\/negotiate\?/);
  // Without letting go, this socket would stay open until SignalR's 100 s negotiate timeout.
  await first!.closed;
  await started;

  // Signing out stops the one still hanging; the keeper's clock stands still, so nothing but the
  // drop after stop's wait can end it (STOP_WAIT_MS runs on that clock: it is advanced below).
  const stopped = keeper.stop();
  clock.advance(60_000);
  await stopped;
  await second!.closed;
  await restarted;
  expect(held).toHaveLength(2);
});
