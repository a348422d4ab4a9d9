import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { api, claimsOf, createTestDatabase, LOCAL_POSTGRES_URL, login, postWithKey } from '../test-server.ts';
import { runServerProcess, startServerProcess, type ServerProcess } from '../server-process.ts';
import { openDatabase } from '../../../server/db/database.ts';

/**
 * Backups an operator can trust (docs/operations.md, "Backup and restore"): `npm run backup` taken
 * from a running site under write traffic holds every write acknowledged before it began, once;
 * `npm run restore` puts it back, refuses a running site, and a person erased after the backup is
 * erased again when the restored site starts. Real server processes and the real scripts, on SQLite
 * and on PostgreSQL, whatever DATABASE_URL the suite runs with.
 */

const DATABASES = [
  // '' is no PostgreSQL URL: a SQLite file of its own even when the suite runs on PostgreSQL.
  { name: 'SQLite', base: '' },
  { name: 'PostgreSQL', base: LOCAL_POSTGRES_URL },
] as const;

/** A test starts two or three server processes and the scripts: seconds each on a busy machine. */
const SERVERS_TIMEOUT_MS = 120_000;

const ROOT = path.resolve(import.meta.dirname, '../../..');
const PASSWORD = 'blå-ballong-73';

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

function scratchFolder(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-backup-'));
  cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function database(base: string) {
  const db = await createTestDatabase(base);
  cleanups.push(() => db.drop());
  return db;
}

async function serverOn(databaseUrl: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  // The writers below post as fast as answers come: no content limit is under test here.
  const server = await startServerProcess({ DATABASE_URL: databaseUrl, RATE_LIMIT_FACTOR: '1000', ...env });
  cleanups.push(() => server.stop());
  return server;
}

/** `npm run backup|restore -- FILE` as an operator runs it: its exit code and what it printed. */
function runScript(
  script: 'backup' | 'restore',
  file: string,
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `scripts/${script}.ts`, file], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

async function newChild(url: string, username: string): Promise<string> {
  const res = await api(url, '/portal/api/accounts/registercontact', {
    body: { username, password: PASSWORD },
  });
  expect(res.status).toBe(201);
  return (await login(url, username, PASSWORD)).access_token;
}

async function openMail(url: string, token: string, subject: string, text: string): Promise<number> {
  const res = await postWithKey(url, '/portal/mail', { token, body: { subject, text }, key: randomUUID() });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: number }).id;
}

async function mailMessages(url: string, token: string, conversation: number): Promise<string[]> {
  const res = await fetch(
    `${url}/portal/features/conversations/conversationsapplication-id/messages?conversation=${conversation}`,
    { headers: { Authorization: `Bearer ${token}`, 'X-App-Variant': 'Barn' } },
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as { value: Array<{ message: string }> }).value.map((m) => m.message);
}

/**
 * Writers that post messages one after another, each with its Idempotency-Key, until stopped.
 * `acknowledged` grows as answers arrive; `reached(n)` resolves once n have been.
 */
function writers(url: string, token: string, mails: number[]) {
  const acknowledged: string[] = [];
  const failures: string[] = [];
  const waiting: Array<{ n: number; resolve: () => void }> = [];
  let stopped = false;
  const write = async (mail: number) => {
    for (let i = 0; !stopped; i++) {
      const key = randomUUID();
      const content = `Mail ${mail}, meddelande ${i} (${key})`;
      const res = await postWithKey(url, '/portal/conversationmessage', {
        token,
        body: { conversation: mail, content },
        key,
      });
      if (res.status !== 201) failures.push(`${res.status}: ${await res.text()}`);
      else acknowledged.push(content);
      for (const w of waiting.filter((w) => acknowledged.length >= w.n)) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve();
      }
    }
  };
  const running = Promise.all(mails.map(write));
  return {
    acknowledged,
    failures,
    reached: (n: number) =>
      new Promise<void>((resolve) => {
        if (acknowledged.length >= n) resolve();
        else waiting.push({ n, resolve });
      }),
    async stop() {
      stopped = true;
      await running;
    },
  };
}

/** The account's row and what its mail still holds, read from the database itself. */
async function storedPerson(databaseUrl: string, accountId: number, mail: number) {
  const open = openDatabase(databaseUrl);
  try {
    const account = await open.db
      .selectFrom('accounts')
      .select(['username', 'deleted_date'])
      .where('id', '=', accountId)
      .executeTakeFirstOrThrow();
    const messages = await open.db
      .selectFrom('conversation_messages')
      .select('message')
      .where('conversation_id', '=', mail)
      .execute();
    return { account, messages: messages.map((m) => m.message).filter((m) => m !== '') };
  } finally {
    await open.close();
  }
}

describe.each(DATABASES)('backup and restore ($name)', ({ base }) => {
  it(
    'a backup taken under write traffic holds every write acknowledged before it began, once',
    async () => {
      const original = await database(base);
      const server = await serverOn(original.url);
      const token = await newChild(server.url, 'skrivare');
      const mails = [
        await openMail(server.url, token, 'Första', 'Start 1'),
        await openMail(server.url, token, 'Andra', 'Start 2'),
        await openMail(server.url, token, 'Tredje', 'Start 3'),
      ];
      const traffic = writers(server.url, token, mails);
      await traffic.reached(30);

      const file = path.join(scratchFolder(), 'site.backup');
      const before = [...traffic.acknowledged];
      const backup = await runScript('backup', file, { DATABASE_URL: original.url });
      const duringOrAfter = traffic.acknowledged.length - before.length;
      await traffic.stop();
      expect(backup.output).toContain('Backup of the');
      expect(backup.code).toBe(0);
      // It holds everything the site knows of the people it serves: the site's own user reads it.
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      // The backup ran while the writers wrote, and did not make a single write fail.
      expect(duringOrAfter).toBeGreaterThan(0);
      expect(traffic.failures).toEqual([]);
      await server.stop();

      const restored = await database(base);
      const restore = await runScript('restore', file, { DATABASE_URL: restored.url });
      expect(restore.output).toContain('Restored');
      expect(restore.code).toBe(0);

      const next = await serverOn(restored.url);
      const again = (await login(next.url, 'skrivare', PASSWORD)).access_token;
      const stored = (await Promise.all(mails.map((mail) => mailMessages(next.url, again, mail)))).flat();
      const count = new Map<string, number>();
      for (const message of stored) count.set(message, (count.get(message) ?? 0) + 1);
      expect(before.filter((message) => count.get(message) !== 1)).toEqual([]);
      // Nothing in the restored site is there twice either.
      expect([...count.values()].filter((n) => n !== 1)).toEqual([]);
    },
    SERVERS_TIMEOUT_MS,
  );

  it(
    'a person erased after the backup was taken is erased again when the restored site starts',
    async () => {
      const site = await database(base);
      const folder = scratchFolder();
      // PostgreSQL has no file to keep the log beside: the site names one (SQLite's default is beside its file).
      const env: Record<string, string> = base
        ? { ERASURE_LOG_FILE: path.join(folder, 'erasure-log.jsonl') }
        : {};
      const log = env.ERASURE_LOG_FILE ?? `${site.url}.erasure-log.jsonl`;
      const server = await serverOn(site.url, env);
      const token = await newChild(server.url, 'glomd');
      const mail = await openMail(server.url, token, 'Hemligt', 'Något bara jag vet');
      const file = path.join(folder, 'site.backup');
      expect((await runScript('backup', file, { DATABASE_URL: site.url, ...env })).code).toBe(0);

      expect((await api(server.url, '/portal/deleteContact', { token, body: {} })).status).toBe(200);
      await expect(login(server.url, 'glomd', PASSWORD)).rejects.toThrow();
      await server.stop();

      // The log names the account and the time, nothing of the person.
      const lines = fs.readFileSync(log, 'utf8').trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(Object.keys(JSON.parse(lines[0]!) as object).sort()).toEqual(['account', 'at', 'site']);
      expect(lines[0]).not.toContain('glomd');

      const restore = await runScript('restore', file, { DATABASE_URL: site.url, ...env });
      expect(restore.code).toBe(0);
      // The backup brought the person back...
      const { accountId } = claimsOf(token);
      const back = await storedPerson(site.url, accountId, mail);
      expect(back.account).toEqual({ username: 'glomd', deleted_date: null });
      expect(back.messages).toContain('Något bara jag vet');

      // ...and the start erases them again before it serves anyone.
      const next = await runServerProcess({ DATABASE_URL: site.url, ...env });
      cleanups.push(() => next.stop());
      expect(next.exitCode).toBeNull();
      expect(next.output()).toContain('1 restored account(s) erased again');
      await expect(login(next.url, 'glomd', PASSWORD)).rejects.toThrow();
      const after = await storedPerson(site.url, accountId, mail);
      expect(after.account.username).toBeNull();
      expect(after.account.deleted_date).not.toBeNull();
      expect(after.messages).toEqual([]);
      // Made again from the log, not logged a second time.
      expect(fs.readFileSync(log, 'utf8').trim().split('\n')).toHaveLength(1);
    },
    SERVERS_TIMEOUT_MS,
  );

  it(
    'a new person who gets the id of one erased after the backup is left alone at every start',
    async () => {
      const site = await database(base);
      const folder = scratchFolder();
      const env: Record<string, string> = base
        ? { ERASURE_LOG_FILE: path.join(folder, 'erasure-log.jsonl') }
        : {};
      const first = await serverOn(site.url, env);
      const file = path.join(folder, 'site.backup');
      expect((await runScript('backup', file, { DATABASE_URL: site.url, ...env })).code).toBe(0);
      // Made and erased after the backup: the restore forgets the account, and its id is free again.
      const gone = await newChild(first.url, 'kortlivad');
      expect((await api(first.url, '/portal/deleteContact', { token: gone, body: {} })).status).toBe(200);
      await first.stop();
      expect((await runScript('restore', file, { DATABASE_URL: site.url, ...env })).code).toBe(0);

      const second = await serverOn(site.url, env);
      const token = await newChild(second.url, 'nykomling');
      // The restore put the id counter back: the newcomer has the erased person's id.
      expect(claimsOf(token).accountId).toBe(claimsOf(gone).accountId);
      await second.stop();

      const third = await runServerProcess({ DATABASE_URL: site.url, ...env });
      cleanups.push(() => third.stop());
      expect(third.exitCode).toBeNull();
      expect(third.output()).not.toContain('erased again');
      expect((await login(third.url, 'nykomling', PASSWORD)).access_token).toBeTruthy();
    },
    SERVERS_TIMEOUT_MS,
  );

  it(
    'a restore into a running site is refused, and the site goes on as it was',
    async () => {
      const site = await database(base);
      const server = await serverOn(site.url);
      const token = await newChild(server.url, 'kvar');
      const mail = await openMail(server.url, token, 'Kvar', 'Före backupen');
      const file = path.join(scratchFolder(), 'site.backup');
      expect((await runScript('backup', file, { DATABASE_URL: site.url })).code).toBe(0);
      const later = await postWithKey(server.url, '/portal/conversationmessage', {
        token,
        body: { conversation: mail, content: 'Efter backupen' },
        key: randomUUID(),
      });
      expect(later.status).toBe(201);

      const restore = await runScript('restore', file, { DATABASE_URL: site.url });
      expect(restore.code).toBe(1);
      expect(restore.output).toContain('the site is running');
      expect(restore.output).toContain('stop every server process of the site');

      expect(await mailMessages(server.url, token, mail)).toEqual(
        expect.arrayContaining(['Före backupen', 'Efter backupen']),
      );
    },
    SERVERS_TIMEOUT_MS,
  );

  it(
    'a backup of the other engine is refused before anything is touched',
    async () => {
      const site = await database(base);
      const file = path.join(scratchFolder(), 'other.backup');
      // The other engine's file as it begins: a pg_dump archive, or a SQLite database.
      fs.writeFileSync(
        file,
        base ? 'SQLite format 3\0 and the rest of a database' : 'PGDMP and the rest of an archive',
      );

      const restore = await runScript('restore', file, { DATABASE_URL: site.url });
      expect(restore.code).toBe(1);
      expect(restore.output).toMatch(
        /is a (SQLite|PostgreSQL) backup, but DATABASE_URL names a (SQLite|PostgreSQL) database/,
      );
    },
    SERVERS_TIMEOUT_MS,
  );
});
