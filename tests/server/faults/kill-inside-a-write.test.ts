import { afterAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTestDatabase, LOCAL_POSTGRES_URL, login, postWithKey } from '../../../harness/test-server.ts';
import {
  PRODUCTION_ENV,
  runServerProcess,
  startServerProcess,
  type ServerProcess,
} from '../../../harness/server-process.ts';

/**
 * Fault: the process is killed with SIGKILL inside a create, after its transaction committed and
 * before its answer (or anything after the commit) ran. The test-only fault point
 * FAULT_KILL_AFTER_CREATE=1 does exactly that to a real server process. The client never hears an
 * answer, so it retries with the same Idempotency-Key against the next process on the same database:
 * the retry must replay what the first request stored, at once, and nothing may be stored twice.
 * On SQLite and on PostgreSQL, whatever DATABASE_URL the suite runs with.
 */

const DATABASES = [
  { name: 'SQLite', base: undefined },
  { name: 'PostgreSQL', base: LOCAL_POSTGRES_URL },
] as const;

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Resolves once nothing answers at `url` any more: the process is gone. */
async function gone(url: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const up = await fetch(`${url}/healthz`).then(
      () => true,
      () => false,
    );
    if (!up) return;
    if (Date.now() > deadline) throw new Error(`the server at ${url} did not die`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function serverOn(databaseUrl: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const server = await startServerProcess({ DATABASE_URL: databaseUrl, ...env });
  cleanups.push(() => server.stop());
  return server;
}

/**
 * Sends a create to a process that dies inside it: the request gets no answer (the socket closes),
 * and the process is gone before this returns.
 */
async function killedInside(databaseUrl: string, path: string, body: unknown, key: string) {
  const doomed = await serverOn(databaseUrl, { FAULT_KILL_AFTER_CREATE: '1' });
  const { access_token: token } = await login(doomed.url, 'demo', 'demo-losenord');
  await expect(postWithKey(doomed.url, path, { token, body, key })).rejects.toThrow();
  await gone(doomed.url);
}

const CONV = '/portal/features/conversations/conversationsapplication-id';

async function read<T>(url: string, token: string, path: string): Promise<T> {
  const res = await fetch(`${url}${CONV}${path}`, {
    headers: { Authorization: `Bearer ${token}`, 'X-App-Variant': 'Barn' },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { value: T }).value;
}

const mailMessages = (url: string, token: string, conversation: number) =>
  read<Array<{ id: number; message: string }>>(
    url,
    token,
    `/messages?take=9999&conversation=${conversation}&selection=mine`,
  );

describe.each(DATABASES)('a process killed right after a create commits ($name)', ({ base }) => {
  it('a new mail: the retry with the same key replays the stored mail at once, and there is one', async () => {
    const database = await createTestDatabase(base);
    cleanups.push(() => database.drop());
    const key = randomUUID();
    const text = `Dödad mitt i skrivandet ${key}`;
    await killedInside(database.url, '/portal/mail', { subject: 'Fråga', text }, key);

    const next = await serverOn(database.url);
    const { access_token: token } = await login(next.url, 'demo', 'demo-losenord');
    const retry = await postWithKey(next.url, '/portal/mail', {
      token,
      body: { subject: 'Fråga', text },
      key,
    });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const mail = (await retry.json()) as { id: number };

    const mails = await read<Array<{ id: number; subject: string }>>(
      next.url,
      token,
      '/conversations?take=9999&skip=0&selection=mine',
    );
    expect(mails.filter((c) => c.subject === 'Fråga').map((c) => c.id)).toEqual([mail.id]);
    expect((await mailMessages(next.url, token, mail.id)).filter((m) => m.message === text)).toHaveLength(1);
  });

  it('a message in a mail: the retry replays the stored message, and it is stored once', async () => {
    const database = await createTestDatabase(base);
    cleanups.push(() => database.drop());
    const first = await serverOn(database.url);
    const { access_token: firstToken } = await login(first.url, 'demo', 'demo-losenord');
    const opened = await postWithKey(first.url, '/portal/mail', {
      token: firstToken,
      body: { subject: 'Tråd', text: 'Första' },
      key: randomUUID(),
    });
    expect(opened.status).toBe(200);
    const mail = (await opened.json()) as { id: number };
    await first.stop();

    const key = randomUUID();
    const body = { conversation: mail.id, content: `Andra ${key}` };
    await killedInside(database.url, '/portal/conversationmessage', body, key);

    const next = await serverOn(database.url);
    const { access_token: token } = await login(next.url, 'demo', 'demo-losenord');
    const retry = await postWithKey(next.url, '/portal/conversationmessage', { token, body, key });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const message = (await retry.json()) as { id: number; message: string };
    expect(message.message).toBe(body.content);
    const stored = (await mailMessages(next.url, token, mail.id)).filter((m) => m.message === body.content);
    expect(stored.map((m) => m.id)).toEqual([message.id]);
  });
});

describe('the fault point', () => {
  it('is refused by a production server', async () => {
    const run = await runServerProcess({ ...PRODUCTION_ENV, FAULT_KILL_AFTER_CREATE: '1' });
    cleanups.push(() => run.stop());
    expect(run.exitCode).not.toBeNull();
    expect(run.output()).toContain('FAULT_KILL_AFTER_CREATE is for tests only');
  });
});
