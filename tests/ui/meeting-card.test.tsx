import './page-dom.ts';
import 'fake-indexeddb/auto';
import { cleanup, screen } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MEETING_CARD_SUBSCRIBE_DELAY_MS } from '../../contract/timings.ts';
import type { WorkerApi } from '../../worker/client/api.ts';
import { outcomeOf } from '../../worker/base/result.ts';
import { MeetingCard } from '../../src/meeting-list/meeting-card.tsx';
import { startTestServer, type TestServer } from '../../harness/test-server.ts';
import { createMeeting, leaderToken } from '../worker/group/group-helpers.ts';
import { connectUi, renderWithData, type UiConnection } from './worker-connection.tsx';

/** A meeting card on the meeting list, against the real worker core and the real server. */
let server: TestServer;
let leader: string;
const connections: UiConnection[] = [];
beforeAll(async () => {
  server = await startTestServer({ variant: 'gruppstod' });
  leader = await leaderToken(server);
});
afterEach(async () => {
  cleanup();
  await Promise.all(connections.splice(0).map((c) => c.dispose()));
});
afterAll(async () => server?.dispose());

type WatchCall = Parameters<WorkerApi['watchMeeting']>;

/**
 * The UI's connection with its watchMeeting calls recorded on their way to the real worker; `first`
 * resolves with the first of them.
 */
function recordingWatches(connection: UiConnection) {
  const calls: WatchCall[] = [];
  let resolveFirst: (call: WatchCall) => void = () => undefined;
  const first = new Promise<WatchCall>((resolve) => (resolveFirst = resolve));
  const api = new Proxy(connection.access.api, {
    get(target, property, receiver) {
      if (property !== 'watchMeeting') return Reflect.get(target, property, receiver) as unknown;
      return (...call: WatchCall) => {
        calls.push(call);
        if (calls.length === 1) resolveFirst(call);
        return target.watchMeeting(...call);
      };
    },
  });
  return { calls, first, connection: { ...connection, access: { ...connection.access, api } } };
}

describe('a meeting card', () => {
  it('subscribes to the meeting’s updates 2 s after it shows, and lets them go when it goes', async () => {
    const meeting = await createMeeting(server, leader, 'Kortets tillfälle');
    const connection = await connectUi(server, 'DEMOKOD-0001', null);
    connections.push(connection);
    const { worker, db } = connection.fixture;
    expect(outcomeOf(await worker.commands.loadMeetings())).toBe('ok');
    const row = (await db.meetings.get(meeting.id))!;
    expect(row).toBeDefined();

    const watches = recordingWatches(connection);
    const shownAt = performance.now();
    const view = renderWithData(
      server,
      watches.connection,
      <ul>
        <MeetingCard meeting={row} now={new Date()} />
      </ul>,
    );
    await screen.findByRole('heading', { level: 4, name: 'Kortets tillfälle' });
    expect(watches.calls).toEqual([]);

    expect(await watches.first).toEqual([meeting.id, true]);
    expect(performance.now() - shownAt).toBeGreaterThanOrEqual(MEETING_CARD_SUBSCRIBE_DELAY_MS);
    view.unmount();
    expect(watches.calls).toEqual([
      [meeting.id, true],
      [meeting.id, false],
    ]);
  });
});
