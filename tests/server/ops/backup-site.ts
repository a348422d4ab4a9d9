import { expect } from 'vitest';
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { api, createTestDatabase, login, postWithKey } from '../../../harness/test-server.ts';
import { runServerProcess, type ServerRun } from '../../../harness/server-process.ts';
import { openDatabase } from '../../../server/db/database.ts';

/**
 * A site for the backup tests: its database, a folder of its own (backups, the erasure log), its
 * environment, and the real server and scripts run on it as an operator runs them.
 */

const ROOT = path.resolve(import.meta.dirname, '../../..');
export const PASSWORD = 'blå-ballong-73';

/** A site's secret, as its servers and its backup scripts all have it. */
export const newSecret = () => randomBytes(32).toString('hex');

export type Env = Record<string, string | undefined>;

export interface BackupSite {
  url: string;
  folder: string;
  /** The site's erasure log. */
  log: string;
  /** What every server and script of the site runs with (DATABASE_URL, its secret, its log). */
  env: Env;
  /** Starts a server of the site; `extra` on top of the site's environment. Fails if it does not come up. */
  server(extra?: Env): Promise<ServerRun>;
  /** Runs a server of the site as far as it gets: up, or exited. */
  run(extra?: Env): Promise<ServerRun>;
  /** `npm run backup|restore -- FILE` with the site's environment and `extra` on top. */
  script(
    name: 'backup' | 'restore',
    file: string,
    extra?: Env,
  ): Promise<{ code: number | null; output: string }>;
}

/** Sites, folders and processes that `cleanup` removes and stops, the last made first. */
export function backupSites() {
  const cleanups: Array<() => Promise<void>> = [];
  const scratchFolder = (): string => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-backup-'));
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    return dir;
  };
  const database = async (base: string) => {
    const db = await createTestDatabase(base);
    cleanups.push(() => db.drop());
    return db;
  };
  return {
    async cleanup() {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    },
    scratchFolder,
    database,
    /**
     * A site on SQLite ('' as `base`) or PostgreSQL, with `secret` (none: a developer's machine).
     * PostgreSQL has no file to keep the log beside: the site names one (SQLite's default is beside its file).
     */
    async site(base: string, secret: string | undefined): Promise<BackupSite> {
      const { url } = await database(base);
      const folder = scratchFolder();
      const env: Env = { DATABASE_URL: url, SIGNING_KEY_SECRET: secret };
      if (base) env.ERASURE_LOG_FILE = path.join(folder, 'erasure-log.jsonl');
      const run = async (extra: Env = {}) => {
        // The writers post as fast as answers come: no content limit is under test here.
        const server = await runServerProcess({ RATE_LIMIT_FACTOR: '1000', ...env, ...extra });
        cleanups.push(() => server.stop());
        return server;
      };
      return {
        url,
        folder,
        log: env.ERASURE_LOG_FILE ?? `${url}.erasure-log.jsonl`,
        env,
        run,
        async server(extra) {
          const server = await run(extra);
          if (server.exitCode !== null)
            throw new Error(`server exited with ${server.exitCode}: ${server.output()}`);
          return server;
        },
        script: (name, file, extra = {}) => runScript(name, file, { ...env, ...extra }),
      };
    },
  };
}

/** `npm run backup|restore -- FILE` as an operator runs it: its exit code and what it printed. */
export function runScript(
  script: 'backup' | 'restore',
  file: string,
  env: Env,
): Promise<{ code: number | null; output: string }> {
  const merged = { ...process.env, ...env };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `scripts/${script}.ts`, file], {
      cwd: ROOT,
      env: Object.fromEntries(Object.entries(merged).filter(([, v]) => v !== undefined)),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

export async function newChild(url: string, username: string): Promise<string> {
  const res = await api(url, '/portal/api/accounts/registercontact', {
    body: { username, password: PASSWORD },
  });
  expect(res.status).toBe(201);
  return (await login(url, username, PASSWORD)).access_token;
}

export async function openMail(url: string, token: string, subject: string, text: string): Promise<number> {
  const res = await postWithKey(url, '/portal/mail', { token, body: { subject, text }, key: randomUUID() });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: number }).id;
}

export async function mailMessages(url: string, token: string, conversation: number): Promise<string[]> {
  const res = await fetch(
    `${url}/portal/features/conversations/conversationsapplication-id/messages?conversation=${conversation}`,
    { headers: { Authorization: `Bearer ${token}`, 'X-App-Variant': 'Barn' } },
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as { value: Array<{ message: string }> }).value.map((m) => m.message);
}

/** The child deletes their account (and is erased). */
export async function deleteAccount(url: string, token: string): Promise<void> {
  expect((await api(url, '/portal/deleteContact', { token, body: {} })).status).toBe(200);
}

/** The account's row and what its mail still holds, read from the database itself. */
export async function storedPerson(databaseUrl: string, accountId: number, mail: number) {
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
