import './page-dom.ts';
import 'fake-indexeddb/auto';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { writeSession } from '../../worker/sync/runtime.ts';
import { ChildStartPage } from '../../src/start/child-start-page.tsx';
import { START_TEXTS } from '../../src/start/texts.ts';
import { useWorkerTestServer } from '../worker/worker-fixture.ts';
import { connectUi, renderWithData, type UiConnection } from './worker-connection.tsx';

/** The start page while the data worker is still booting (the first screen comes quickly). */
const env = useWorkerTestServer();
const connections: UiConnection[] = [];
afterEach(async () => {
  cleanup();
  await Promise.all(connections.splice(0).map((c) => c.dispose()));
});

async function bootingWorker() {
  const connection = await connectUi(env.server, '', null, { notStarted: true });
  connections.push(connection);
  return connection;
}

describe('the first screen before the worker has answered', () => {
  it('shows the signed-out start page at once on a device that has never held a session', async () => {
    const connection = await bootingWorker();
    renderWithData(env.server, connection, <ChildStartPage prompt={null} />);
    expect(await screen.findByText(START_TEXTS.signedOutText)).toBeTruthy();
    expect(screen.getAllByRole('button', { name: START_TEXTS.login }).length).toBeGreaterThan(0);
    // Nothing came from the worker: the page did not wait for it.
    expect(await connection.fixture.db.session.get('current')).toBeUndefined();
  });

  it('never shows the signed-out page where the device last held a session', async () => {
    const connection = await bootingWorker();
    // What the worker wrote the last time the app ran here.
    await writeSession(connection.fixture.db, 'authenticated');
    renderWithData(env.server, connection, <ChildStartPage prompt={null} />);
    expect(await screen.findByText(START_TEXTS.childIntro)).toBeTruthy();
    expect(screen.queryByText(START_TEXTS.signedOutText)).toBeNull();
  });
});
