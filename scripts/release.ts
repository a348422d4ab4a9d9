// A release: what a rolling upgrade (`npm run cluster`, then SIGHUP) starts its new processes from.
// A snapshot of the server's code as the checkout holds it now, and a client built with its own
// BUILD_ID, in a folder of its own, so that the processes still running the previous release keep
// their code and their client whatever the checkout becomes meanwhile.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

export interface Release {
  /** The client's BUILD_ID (vite.config.ts), also the release's name. */
  id: string;
  /** The folder the processes start in: `server/main.ts` and what it imports. */
  root: string;
  /** The built client the processes serve (CLIENT_DIR). */
  clientDir: string;
}

/** The checkout as it is, for the processes a cluster starts with. */
export const CHECKOUT: Release = { id: 'checkout', root, clientDir: path.join(root, 'dist') };

/** What the server runs: its code, the contract it shares with the client, and how to run them. */
const SERVER_PARTS = ['server', 'contract', 'package.json', 'tsconfig.json', 'tsconfig.server.json'];

/**
 * Where releases are kept unless RELEASES_DIR names a folder: the checkout's own `data/`, not the
 * system's temporary folder, where another user of the machine could make `portal-releases` first
 * and so write the code the site runs.
 */
export const DEFAULT_RELEASES_DIR = path.join(root, 'data', 'releases');

/** A refused release folder: the operator reads what to do about it. */
export class ReleaseFolderError extends Error {
  override readonly name = 'ReleaseFolderError';
}

/**
 * The folder releases are kept in, made 0700 when missing and refused unless it is a real folder
 * (not a link) of this user that neither group nor others can write: whoever can write there can
 * put code of their own into the next release the processes start from.
 */
export function releasesFolder(dir: string): string {
  const folder = path.resolve(dir);
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  const stat = fs.lstatSync(folder);
  if (!stat.isDirectory()) {
    throw new ReleaseFolderError(
      `The release folder ${folder} is a link or not a folder: name the real folder in RELEASES_DIR.`,
    );
  }
  // Windows has neither owners nor modes of this kind to check.
  const uid = process.getuid?.();
  if (uid === undefined) return folder;
  if (stat.uid !== uid) {
    throw new ReleaseFolderError(
      `The release folder ${folder} belongs to another user (uid ${stat.uid}), not this one (uid ${uid}): refused. Remove it, or set RELEASES_DIR to a folder of this user.`,
    );
  }
  if ((stat.mode & 0o022) !== 0) {
    throw new ReleaseFolderError(
      `The release folder ${folder} can be written by group or others (mode ${(stat.mode & 0o777).toString(8)}): refused. chmod 700 it, or set RELEASES_DIR to a folder only this user writes.`,
    );
  }
  return folder;
}

/** A BUILD_ID as vite.config.ts makes one: the time, so a newer build sorts after an older one. */
export const newBuildId = (): string => new Date().toISOString().replace(/\D/g, '').slice(0, 14);

export interface ReleaseOptions {
  id?: string;
  /** Where releases are kept (RELEASES_DIR, else DEFAULT_RELEASES_DIR); see releasesFolder. */
  dir?: string;
  /**
   * The client: 'build' builds it from the checkout with the release's BUILD_ID (about a minute);
   * a folder is copied as it is (a client built before, or the tests' stand-in); null: none (a
   * cluster that serves no pages).
   */
  client: 'build' | string | null;
  /**
   * The client of the release being replaced: its hashed assets are kept in the new one, so a page
   * loaded before the upgrade still finds the code it asks for later, from whichever process.
   */
  previousClientDir?: string;
}

/**
 * Makes a release from the checkout; see Release. The client's build runs as a process of its own,
 * so a cluster that prepares a release goes on reading its processes' output meanwhile.
 */
export async function prepareRelease(options: ReleaseOptions): Promise<Release> {
  const id = options.id ?? newBuildId();
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(id))
    throw new Error(`a release id is letters, digits, . _ -, not ${id}`);
  const base = releasesFolder(options.dir ?? process.env.RELEASES_DIR ?? DEFAULT_RELEASES_DIR);
  const releaseRoot = path.join(base, id);
  fs.rmSync(releaseRoot, { recursive: true, force: true });
  fs.mkdirSync(releaseRoot, { mode: 0o700 });
  for (const part of SERVER_PARTS) {
    fs.cpSync(path.join(root, part), path.join(releaseRoot, part), { recursive: true });
  }
  // The packages are the checkout's: a release that changes them is installed, not rolled.
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(releaseRoot, 'node_modules'), 'dir');
  const clientDir = path.join(releaseRoot, 'dist');
  if (options.client === 'build') {
    await buildClient(clientDir, id);
  } else if (options.client !== null) {
    fs.cpSync(options.client, clientDir, { recursive: true });
  }
  if (options.client !== null && options.previousClientDir) keepAssets(options.previousClientDir, clientDir);
  return { id, root: releaseRoot, clientDir };
}

/** Copies the hashed assets of `from` that `to` lacks (a hashed name never means two contents). */
function keepAssets(from: string, to: string) {
  const assets = path.join(from, 'assets');
  if (!fs.existsSync(assets)) return;
  fs.mkdirSync(path.join(to, 'assets'), { recursive: true });
  for (const name of fs.readdirSync(assets)) {
    const target = path.join(to, 'assets', name);
    if (!fs.existsSync(target)) fs.copyFileSync(path.join(assets, name), target);
  }
}

/** `vite build` of the checkout's client into `outDir` with BUILD_ID `id`. */
function buildClient(outDir: string, id: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const build = spawn('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir'], {
      cwd: root,
      env: { ...process.env, BUILD_ID: id },
      stdio: 'inherit',
    });
    build.once('error', reject);
    build.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`the client build exited with ${code}`)),
    );
  });
}
