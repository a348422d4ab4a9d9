import { afterAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { claimsOf, LOCAL_POSTGRES_URL, login } from '../../../harness/test-server.ts';
import { PRODUCTION_ENV } from '../../../harness/server-process.ts';
import {
  backupSites,
  deleteAccount,
  newChild,
  newSecret,
  openMail,
  PASSWORD,
  storedPerson,
} from './backup-site.ts';
import { copyRange, editDatabaseInBackup, editHeaderDate, flipByte } from './backup-attack.ts';

/**
 * Attack: someone who can write to the backups (a backup disk, a copy sent elsewhere) edits one so
 * that a child erased since it was taken comes back when it is restored. The old erasure replay
 * left alone an account made after its erasure (a newcomer who got a freed id), so moving the
 * child's `created_date` past the erasure in the backup brought the child back for good. Now every
 * backup is signed under the site's SIGNING_KEY_SECRET and a restore refuses a changed one (any
 * byte); an unsigned one is made and restored only without a secret and outside production; and
 * the replay no longer reads a date at all (docs/decisions.md). The real scripts and servers, on
 * SQLite and PostgreSQL.
 */

const DATABASES = [
  { name: 'SQLite', base: '' },
  { name: 'PostgreSQL', base: LOCAL_POSTGRES_URL },
] as const;

/** Several server starts and script runs per test, seconds each on a busy machine. */
const TIMEOUT_MS = 180_000;

const sites = backupSites();
afterAll(() => sites.cleanup());

/** The child's account row made to look newer than its erasure: what the attack edits. */
const AFTER_THE_ERASURE = (accountId: number) =>
  `update accounts set created_date = '2099-01-01T00:00:00.000Z' where id = ${accountId};
   update contacts set created_date = '2099-01-01T00:00:00.000Z'
    where id = (select contact_id from accounts where id = ${accountId});`;

const SIGNATURE_REFUSED = /signature does not match, refused/;

/**
 * A site with a child who wrote something and then deleted their account after the backup was
 * taken: the backup still holds the child. The server is stopped, as for a restore.
 */
async function siteWithErasedChild(base: string, secret: string | undefined) {
  const site = await sites.site(base, secret);
  const server = await site.server();
  const token = await newChild(server.url, 'utraderad');
  const mail = await openMail(server.url, token, 'Hemligt', 'Något bara jag vet');
  const file = path.join(site.folder, 'site.backup');
  const backup = await site.script('backup', file);
  expect(backup.code).toBe(0);
  await deleteAccount(server.url, token);
  await server.stop();
  return { site, file, backup, mail, accountId: claimsOf(token).accountId };
}

describe.each(DATABASES)('a changed backup ($name)', ({ base }) => {
  it(
    'whose dates were edited to outlast an erasure is refused, and the child stays erased',
    async () => {
      const { site, file, mail, accountId } = await siteWithErasedChild(base, newSecret());
      await editDatabaseInBackup(file, AFTER_THE_ERASURE(accountId));

      const restore = await site.script('restore', file);
      expect(restore.output).toMatch(SIGNATURE_REFUSED);
      expect(restore.code).toBe(1);

      // Nothing was restored: the site starts as it stopped, with the child gone.
      const next = await site.server();
      await expect(login(next.url, 'utraderad', PASSWORD)).rejects.toThrow();
      const stored = await storedPerson(site.url, accountId, mail);
      expect(stored.account.username).toBeNull();
      expect(stored.messages).toEqual([]);
    },
    TIMEOUT_MS,
  );

  it(
    'with any one byte changed, cut short or lengthened is refused, and the site is left as it was',
    async () => {
      const site = await sites.site(base, newSecret());
      const server = await site.server();
      await newChild(server.url, 'fore');
      const file = path.join(site.folder, 'site.backup');
      expect((await site.script('backup', file)).code).toBe(0);
      // After the backup: a restore would take this child away.
      await newChild(server.url, 'efter');
      await server.stop();

      const { start, length } = copyRange(file);
      const changes: Array<[string, (copy: string) => void]> = [
        ["the database copy's own header", (copy) => flipByte(copy, start + (base ? 17 : 24))],
        ['the date in its header', (copy) => expect(editHeaderDate(copy)).toBe(true)],
        ['the middle of the database copy', (copy) => flipByte(copy, start + Math.floor(length / 2))],
        ['its last byte', (copy) => flipByte(copy, fs.statSync(copy).size - 1)],
        ['cut short', (copy) => fs.truncateSync(copy, fs.statSync(copy).size - 1)],
        ['a byte added', (copy) => fs.appendFileSync(copy, '\n')],
      ];
      for (const [i, [what, change]] of changes.entries()) {
        const copy = path.join(site.folder, `changed-${i}.backup`);
        fs.copyFileSync(file, copy);
        change(copy);
        const restore = await site.script('restore', copy);
        expect({ what, code: restore.code }).toEqual({ what, code: 1 });
        expect(restore.output).toMatch(/refused/);
      }

      const next = await site.server();
      expect((await login(next.url, 'efter', PASSWORD)).access_token).toBeTruthy();
      // The backup itself, unchanged, restores.
      await next.stop();
      const restore = await site.script('restore', file);
      expect(restore.output).toContain('Restored');
      expect(restore.code).toBe(0);
    },
    TIMEOUT_MS,
  );

  it(
    'signed needs the secret it was made with; unsigned is refused in production and on a site with a secret',
    async () => {
      const secret = newSecret();
      const signed = await siteWithErasedChild(base, secret);
      const withoutSecret = await signed.site.script('restore', signed.file, {
        SIGNING_KEY_SECRET: undefined,
      });
      expect(withoutSecret.output).toMatch(/is signed: restore it with the site's SIGNING_KEY_SECRET/);
      expect(withoutSecret.code).toBe(1);
      const otherSecret = await signed.site.script('restore', signed.file, {
        SIGNING_KEY_SECRET: newSecret(),
      });
      expect(otherSecret.output).toMatch(SIGNATURE_REFUSED);
      expect(otherSecret.code).toBe(1);

      // Production makes no unsigned backup.
      const production = await signed.site.script(
        'backup',
        path.join(signed.site.folder, 'unsigned.backup'),
        {
          NODE_ENV: 'production',
          SIGNING_KEY_SECRET: undefined,
        },
      );
      expect(production.output).toMatch(/With NODE_ENV=production a backup is signed/);
      expect(production.code).toBe(1);
      expect(fs.existsSync(path.join(signed.site.folder, 'unsigned.backup'))).toBe(false);

      // A developer's site without a secret makes an unsigned one, and says so...
      const unsigned = await siteWithErasedChild(base, undefined);
      expect(unsigned.backup.output).toMatch(/unsigned/);
      expect(unsigned.backup.output).toContain('WARNING');
      // ...which a site with a secret, or in production, refuses: any byte of it may have changed.
      const onSigningSite = await unsigned.site.script('restore', unsigned.file, {
        SIGNING_KEY_SECRET: secret,
      });
      expect(onSigningSite.output).toMatch(/is not signed.*refused on a site with SIGNING_KEY_SECRET/);
      expect(onSigningSite.code).toBe(1);
      const inProduction = await unsigned.site.script('restore', unsigned.file, { ...PRODUCTION_ENV });
      expect(inProduction.output).toMatch(/is not signed.*refused with NODE_ENV=production/);
      expect(inProduction.code).toBe(1);
      // Without a secret, outside production, it restores, with a warning.
      const dev = await unsigned.site.script('restore', unsigned.file);
      expect(dev.output).toMatch(/WARNING: the backup is unsigned/);
      expect(dev.code).toBe(0);
    },
    TIMEOUT_MS,
  );

  it(
    'that is unsigned and restored anyway does not bring back a child whose dates it moved',
    async () => {
      // Without a secret nothing refuses the edited backup: the erasure replay must still erase.
      const { site, file, mail, accountId } = await siteWithErasedChild(base, undefined);
      await editDatabaseInBackup(file, AFTER_THE_ERASURE(accountId));
      const restore = await site.script('restore', file);
      expect(restore.code).toBe(0);
      const back = await storedPerson(site.url, accountId, mail);
      expect(back.account).toEqual({ username: 'utraderad', deleted_date: null });

      const next = await site.server();
      expect(next.output()).toContain('1 restored account(s) erased again');
      await expect(login(next.url, 'utraderad', PASSWORD)).rejects.toThrow();
      const after = await storedPerson(site.url, accountId, mail);
      expect(after.account.username).toBeNull();
      expect(after.account.deleted_date).not.toBeNull();
      expect(after.messages).toEqual([]);
    },
    TIMEOUT_MS,
  );
});
