import type { Meeting } from '../../../contract/meetings.ts';
import { beforeAll } from 'vitest';
import { api, login, type TestServer } from '../../../harness/test-server.ts';
import {
  createWorker,
  useWorkerTestServer,
  type WorkerFixture,
  type WorkerTestEnv,
} from '../worker-fixture.ts';

export const CONV = '/portal/features/conversations/conversationsapplication-id';

/** The group leader's token (staff client), for the staff API that drives the meetings. */
export async function leaderToken(server: TestServer): Promise<string> {
  return (await login(server.url, 'gruppledare', 'gruppledare-losenord', 'portal-staff')).access_token;
}

export interface GroupTestEnv extends WorkerTestEnv {
  /** The group leader's staff token, to create and start meetings. */
  leader: string;
}

/**
 * One real Gruppstöd server per test file with the group leader signed in. Registers the vitest
 * hooks, so call it at the top of the file; the fields are filled once `beforeAll` has run.
 */
export function useGroupTestEnv(): GroupTestEnv {
  const env = useWorkerTestServer({ variant: 'gruppstod' }) as GroupTestEnv;
  beforeAll(async () => {
    env.leader = await leaderToken(env.server);
  });
  return env;
}

/** A new meeting in the demo series (the leader's series 1), not started. */
export async function createMeeting(server: TestServer, leader: string, subject: string): Promise<Meeting> {
  const created = await api(server.url, '/portal/staff/meetings', {
    token: leader,
    body: { seriesId: 1, subject, description: 'Test', startDate: new Date().toISOString(), duration: 60 },
  });
  if (created.status !== 201) throw new Error(`create meeting: ${created.status}`);
  return created.body as unknown as Meeting;
}

export async function startMeeting(server: TestServer, leader: string, meetingId: number): Promise<Meeting> {
  const started = await api(server.url, `/portal/staff/meetings/${meetingId}/start`, {
    token: leader,
    body: {},
  });
  if (started.status !== 200) throw new Error(`start meeting: ${started.status}`);
  return started.body as unknown as Meeting;
}

/** A started meeting with its group chat's conversation id. */
export async function startedChat(server: TestServer, leader: string, subject: string) {
  const meeting = await createMeeting(server, leader, subject);
  const started = await startMeeting(server, leader, meeting.id);
  return { meetingId: meeting.id, conversationId: started.conversation!.id };
}

/** A running worker core signed in as `username` (group style: the code, no password). */
export async function signedInWorker(
  server: TestServer,
  username: string,
  password: string | null = null,
  options: Parameters<typeof createWorker>[1] = {},
): Promise<WorkerFixture> {
  const fixture = await createWorker(server, options);
  await fixture.worker.start(true);
  const result = await fixture.worker.login(username, password);
  if (!result.ok) throw new Error(`login ${username}: ${result.code}`);
  return fixture;
}
