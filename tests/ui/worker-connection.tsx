import * as Comlink from 'comlink';
import { configure, render, type RenderResult } from '@testing-library/react';
import type { ReactNode } from 'react';
import type { WorkerApi } from '../../worker/client/api.ts';
import { AtRestKey } from '../../worker/base/at-rest.ts';
import { PortalDb } from '../../worker/base/db.ts';
import type { PortalWorker } from '../../worker/portal-worker.ts';
import { RuntimeConfigBoot } from '../../src/config/runtime-config.tsx';
import { DataProvider, type DataAccess } from '../../src/data/index.ts';
import type { TestServer } from '../../harness/test-server.ts';
import { setPageUrl } from './page-dom.ts';
import { createWorker, type WorkerFixture } from '../worker/worker-fixture.ts';

// A screen here waits on the real server and worker core: on a busy 2-core machine the first
// render of a chat took longer than Testing Library's 1 s (one run in three failed under load).
configure({ asyncUtilTimeout: 5_000 });

/**
 * The worker API object the UI talks to: the real worker core's commands, as worker/entry.ts
 * exposes them. entry.ts itself cannot be imported here: it boots a worker of its own on import and
 * counts subscriptions per browser tab, which a single rendered component does not need.
 */
function workerApi(core: PortalWorker): WorkerApi {
  return {
    ...core.commands,
    hello: async (buildId) => ({ buildId, ok: true }),
  };
}

export interface UiConnection {
  /** What the components get from `<DataProvider>`, as connectWorker() gives it in the browser. */
  access: DataAccess;
  /** The worker core behind it, for the test's own setup. */
  fixture: WorkerFixture;
  dispose(): Promise<void>;
}

/**
 * A real worker core against the real test server, signed in as `username`, and the UI's side of
 * it: the worker API over Comlink on a MessageChannel (the browser uses a worker's port) and a
 * database of the same name that the components read with live queries. `options.fetch` is the
 * worker's network, for a test that cuts it.
 */
export async function connectUi(
  server: TestServer,
  username: string,
  password: string | null,
  options: { fetch?: typeof fetch; notStarted?: boolean } = {},
): Promise<UiConnection> {
  const fixture = await createWorker(server, options.fetch ? { fetch: options.fetch } : {});
  // notStarted: a worker still booting (it has written nothing yet); `username` is then unused.
  if (!options.notStarted) {
    await fixture.worker.start(true);
    const login = await fixture.worker.login(username, password);
    if (!login.ok) throw new Error(`login ${username}: ${login.code}`);
  }

  const channel = new MessageChannel();
  Comlink.expose(workerApi(fixture.worker), channel.port1);
  const api = Comlink.wrap<WorkerApi>(channel.port2);
  // The tab's own connection, reading what the worker sealed with the same key (as connect.ts does).
  const db = new PortalDb(fixture.db.name, undefined, new AtRestKey(fixture.keyFile));
  return {
    access: { api, db },
    fixture,
    async dispose() {
      api[Comlink.releaseProxy]();
      channel.port1.close();
      channel.port2.close();
      db.close();
      await fixture.dispose();
    },
  };
}

/**
 * Renders `ui` as the app renders its pages: under the runtime config loaded from the server's
 * /config.json (the page's origin is the server's) and the data provider of `connection`.
 */
export function renderWithData(server: TestServer, connection: UiConnection, ui: ReactNode): RenderResult {
  setPageUrl(server.url);
  return render(
    <RuntimeConfigBoot>
      <DataProvider value={connection.access}>{ui}</DataProvider>
    </RuntimeConfigBoot>,
  );
}
