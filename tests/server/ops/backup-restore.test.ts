import { afterAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { claimsOf, LOCAL_POSTGRES_URL, login, postWithKey } from '../../../harness/test-server.ts';
import {
  backupSites,
  deleteAccount,
  mailMessages,
  newChild,
  newSecret,
  openMail,
  PASSWORD,
  storedPerson,
} from './backup-site.ts';

/**
 * Backups an operator can trust (docs/operations.md, "Backup and restore"): `npm run backup` taken
 * from a running site under write traffic holds every write acknowledged before it began, once;
 * `npm run restore` puts it back, refuses a running site, and a person erased after the backup is
 * erased again when the restored site starts. Real server processes and the real scripts, on SQLite
 * and on PostgreSQL, whatever DATABASE_URL the suite runs with. The sites run with a
 * SIGNING_KEY_SECRET, as a site does, so their backups are signed; what a changed backup meets is in
 * backup-tampering.test.ts.
 */

const DATABASES = [
  // '' is no PostgreSQL URL: a SQLite file of its own even when the suite runs on PostgreSQL.
  { name: 'SQLite', base: '' },
  { name: 'PostgreSQL', base: LOCAL_POSTGRES_URL },
] as const;

/** A test starts two or three server processes and the scripts: seconds each on a busy machine. */
const SERVERS_TIMEOUT_MS = 120_000;

const sites = backupSites();
afterAll(() => sites.cleanup());

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

describe.each(DATABASES)('backup and restore ($name)', ({ base }) => {
  it(
    'a backup taken under write traffic holds every write acknowledged before it began, once',
    async () => {
      const secret = newSecret();
      const original = await sites.site(base, secret);
      const server = await original.server();
      const token = await newChild(server.url, 'skrivare');
      const mails = [
        await openMail(server.url, token, 'Första', 'Start 1'),
        await openMail(server.url, token, 'Andra', 'Start 2'),
        await openMail(server.url, token, 'Tredje', 'Start 3'),
      ];
      const traffic = writers(server.url, token, mails);
      await traffic.reached(30);

      const file = path.join(original.folder, 'site.backup');
      const before = [...traffic.acknowledged];
      const backup = await original.script('backup', file);
      const duringOrAfter = traffic.acknowledged.length - before.length;
      await traffic.stop();
      expect(backup.output).toContain('Backup of the');
      expect(backup.output).toContain('signed under SIGNING_KEY_SECRET');
      expect(backup.code).toBe(0);
      // It holds everything the site knows of the people it serves: the site's own user reads it.
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      // The backup ran while the writers wrote, and did not make a single write fail.
      expect(duringOrAfter).toBeGreaterThan(0);
      expect(traffic.failures).toEqual([]);
      await server.stop();

      const restored = await sites.site(base, secret);
      const restore = await restored.script('restore', file);
      expect(restore.output).toContain('Restored');
      expect(restore.output).not.toContain('WARNING');
      expect(restore.code).toBe(0);

      const next = await restored.server();
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
      const site = await sites.site(base, newSecret());
      const server = await site.server();
      const token = await newChild(server.url, 'glomd');
      const mail = await openMail(server.url, token, 'Hemligt', 'Något bara jag vet');
      const file = path.join(site.folder, 'site.backup');
      expect((await site.script('backup', file)).code).toBe(0);

      await deleteAccount(server.url, token);
      await expect(login(server.url, 'glomd', PASSWORD)).rejects.toThrow();
      await server.stop();

      // The log names the account and the time, nothing of the person.
      const lines = fs.readFileSync(site.log, 'utf8').trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(Object.keys(JSON.parse(lines[0]!) as object).sort()).toEqual(['account', 'at', 'site']);
      expect(lines[0]).not.toContain('glomd');

      const restore = await site.script('restore', file);
      expect(restore.code).toBe(0);
      // The backup brought the person back...
      const { accountId } = claimsOf(token);
      const back = await storedPerson(site.url, accountId, mail);
      expect(back.account).toEqual({ username: 'glomd', deleted_date: null });
      expect(back.messages).toContain('Något bara jag vet');

      // ...and the start erases them again before it serves anyone.
      const next = await site.server();
      expect(next.output()).toContain('1 restored account(s) erased again');
      await expect(login(next.url, 'glomd', PASSWORD)).rejects.toThrow();
      const after = await storedPerson(site.url, accountId, mail);
      expect(after.account.username).toBeNull();
      expect(after.account.deleted_date).not.toBeNull();
      expect(after.messages).toEqual([]);
      // Made again from the log, not logged a second time.
      expect(fs.readFileSync(site.log, 'utf8').trim().split('\n')).toHaveLength(1);
    },
    SERVERS_TIMEOUT_MS,
  );

  it(
    'a new person after a restore never gets the id of one erased since the backup, and is left alone',
    async () => {
      const site = await sites.site(base, newSecret());
      const first = await site.server();
      const file = path.join(site.folder, 'site.backup');
      expect((await site.script('backup', file)).code).toBe(0);
      // Made and erased after the backup: the restore forgets the account and puts the id counter back.
      const gone = await newChild(first.url, 'kortlivad');
      await deleteAccount(first.url, gone);
      await first.stop();
      expect((await site.script('restore', file)).code).toBe(0);

      // The start moved the counter past every id the erasure log names: the newcomer's is new.
      const second = await site.server();
      const token = await newChild(second.url, 'nykomling');
      expect(claimsOf(token).accountId).toBeGreaterThan(claimsOf(gone).accountId);
      await second.stop();

      const third = await site.server();
      expect(third.output()).not.toContain('erased again');
      expect((await login(third.url, 'nykomling', PASSWORD)).access_token).toBeTruthy();
    },
    SERVERS_TIMEOUT_MS,
  );

  it(
    'a restore into a running site is refused, and the site goes on as it was',
    async () => {
      const site = await sites.site(base, newSecret());
      const server = await site.server();
      const token = await newChild(server.url, 'kvar');
      const mail = await openMail(server.url, token, 'Kvar', 'Före backupen');
      const file = path.join(site.folder, 'site.backup');
      expect((await site.script('backup', file)).code).toBe(0);
      const later = await postWithKey(server.url, '/portal/conversationmessage', {
        token,
        body: { conversation: mail, content: 'Efter backupen' },
        key: randomUUID(),
      });
      expect(later.status).toBe(201);

      const restore = await site.script('restore', file);
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
      const site = await sites.site(base, undefined);
      const file = path.join(site.folder, 'other.backup');
      // The other engine's file as it begins: a pg_dump archive, or a SQLite database.
      fs.writeFileSync(
        file,
        base ? 'SQLite format 3\0 and the rest of a database' : 'PGDMP and the rest of an archive',
      );

      const restore = await site.script('restore', file);
      expect(restore.code).toBe(1);
      expect(restore.output).toMatch(
        /is a (SQLite|PostgreSQL) backup, but DATABASE_URL names a (SQLite|PostgreSQL) database/,
      );
    },
    SERVERS_TIMEOUT_MS,
  );
});
