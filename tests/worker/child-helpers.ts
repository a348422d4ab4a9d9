import type { MailDeviceInfo } from '../../worker/base/mail-and-history.ts';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { login, startTestServer, type TestServer } from '../../harness/test-server.ts';
import type { WorkerFixture } from './worker-fixture.ts';

export interface CounsellorTestEnv {
  server: TestServer;
  /** The demo counsellor's staff token, to answer the child's chats and mails. */
  counsellor: string;
  /** Worker cores of the running test, disposed after each test. */
  fixtures: WorkerFixture[];
}

/**
 * One real server per test file with the demo counsellor signed in. Registers the vitest hooks, so
 * call it at the top of the file; the fields are filled once `beforeAll` has run.
 */
export function useCounsellorTestEnv(): CounsellorTestEnv {
  const env = { counsellor: '', fixtures: [] } as unknown as CounsellorTestEnv;
  beforeAll(async () => {
    env.server = await startTestServer();
    env.counsellor = (
      await login(env.server.url, 'kurator', 'kurator-losenord', 'portal-staff')
    ).access_token;
  });
  afterEach(async () => {
    await Promise.all(env.fixtures.splice(0).map((f) => f.dispose()));
  });
  afterAll(async () => env.server?.dispose());
  return env;
}

/** The desktop browser a test child writes mail from (the conversation properties of SPEC §3). */
export const MAIL_DEVICE: MailDeviceInfo = {
  userAgent:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  platform: 'Linux x86_64',
  installed: false,
};
