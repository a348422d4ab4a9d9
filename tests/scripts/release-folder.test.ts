import { afterAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_RELEASES_DIR, prepareRelease } from '../../scripts/release.ts';

/**
 * Attack: a release folder defaulted to `$TMPDIR/portal-releases`, which any user of the machine
 * can make first (world-writable, or their own) and then change the code of the next release the
 * site's processes start from. Now the default is the checkout's own `data/releases`, a folder is
 * made 0700, and one that exists writable by group or others, of another user, or as a link is
 * refused before anything is written into it. The real `prepareRelease` of a rolling upgrade.
 */
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'release-folder-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** The 65534 of Debian's `nobody`: another user. */
const NOBODY = 65534;

/** A folder as someone else could have left it, before the site's first release. */
function preCreated(name: string, mode: number): string {
  const dir = path.join(scratch, name);
  fs.mkdirSync(dir);
  fs.chmodSync(dir, mode);
  return dir;
}

const release = (dir: string) => prepareRelease({ id: 'r1', dir, client: null });

describe('the release folder', () => {
  it('is refused when group or others can write it, and nothing is written into it', async () => {
    for (const [name, mode] of [
      ['open', 0o777],
      ['group', 0o770],
      ['sticky', 0o1777],
    ] as const) {
      const dir = preCreated(name, mode);
      await expect(release(dir)).rejects.toThrow(/can be written by group or others/);
      expect(fs.readdirSync(dir)).toEqual([]);
    }
  });

  it("is refused when it is another user's", async () => {
    // As root a folder is given to `nobody`; any other user finds `/` to be root's.
    const root = process.getuid!() === 0;
    const dir = root ? preCreated('theirs', 0o700) : '/';
    if (root) fs.chownSync(dir, NOBODY, NOBODY);
    await expect(release(dir)).rejects.toThrow(/belongs to another user/);
    if (root) expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('is refused when it is a link, even to a good folder', async () => {
    const good = preCreated('target', 0o700);
    const link = path.join(scratch, 'link');
    fs.symlinkSync(good, link, 'dir');
    await expect(release(link)).rejects.toThrow(/is a link or not a folder/);
    expect(fs.readdirSync(good)).toEqual([]);
  });

  it('is made 0700 when missing, the release inside too; one only its user writes is used', async () => {
    const fresh = path.join(scratch, 'fresh', 'releases');
    const made = await release(fresh);
    expect(fs.statSync(fresh).mode & 0o777).toBe(0o700);
    expect(fs.statSync(made.root).mode & 0o777).toBe(0o700);
    expect(fs.existsSync(path.join(made.root, 'server', 'main.ts'))).toBe(true);

    const readable = preCreated('readable', 0o755);
    expect((await release(readable)).root).toBe(path.join(readable, 'r1'));
  });

  it("is by default the checkout's own data folder, not the system's temporary one", () => {
    const checkout = path.resolve(import.meta.dirname, '../..');
    expect(DEFAULT_RELEASES_DIR).toBe(path.join(checkout, 'data', 'releases'));
    // The old default, which another local user could create first (a checkout may itself be under
    // the temporary folder, as CI's clone can be).
    expect(DEFAULT_RELEASES_DIR.startsWith(path.join(os.tmpdir(), 'portal-releases'))).toBe(false);
  });
});
