// Build-time (Node) code: the list of dist files the service worker precaches, in the shape of
// workbox-precaching's `self.__WB_MANIFEST`. Runs from vite.config.ts, never in the browser.
import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';

export interface PrecacheManifestEntry {
  url: string;
  /** null for files whose name carries a content hash (Vite's `assets/[name]-[hash].[ext]`). */
  revision: string | null;
}

export interface PrecacheManifestOptions {
  /** Vite's `build.assetsDir`: the folder whose hashed file names need no revision. */
  assetsDir?: string;
  /** Files left out, matched against the path relative to the dist folder (with `/`). */
  exclude?: RegExp[];
  /** Further files left out by exact relative path (e.g. the staff console's chunks). */
  excludeFiles?: ReadonlySet<string>;
}

/** Source maps, the service worker itself and the staff console (no part of the child app). */
export const DEFAULT_EXCLUDE = [/\.map$/, /^sw\.js$/, /^personal(?:\/|\.html$)/, /(?:^|\/)\./];

/** Vite's default `[hash]` is 8 characters of base64url just before the extension. */
const HASHED_NAME = /[-.][A-Za-z0-9_-]{8}\.[A-Za-z0-9]+$/;

export function isHashedAsset(file: string, assetsDir = 'assets'): boolean {
  return file.startsWith(`${assetsDir}/`) && HASHED_NAME.test(file);
}

export function revisionOf(content: Uint8Array): string {
  return createHash('md5').update(content).digest('hex');
}

/** Every file of `distDir` except the excluded ones, sorted so that one build gives one manifest. */
export async function buildPrecacheManifest(
  distDir: string,
  { assetsDir = 'assets', exclude = DEFAULT_EXCLUDE, excludeFiles = new Set() }: PrecacheManifestOptions = {},
): Promise<PrecacheManifestEntry[]> {
  const files = (await readdir(distDir, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(distDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .filter((file) => !excludeFiles.has(file) && !exclude.some((pattern) => pattern.test(file)))
    .sort();
  return Promise.all(
    files.map(async (url) => ({
      url,
      revision: isHashedAsset(url, assetsDir) ? null : revisionOf(await readFile(path.join(distDir, url))),
    })),
  );
}

/**
 * Puts the manifest in place of the one `self.__WB_MANIFEST` of the service worker source. Exactly
 * one is required: none would precache nothing, two would mean a source this code does not expect.
 */
export function injectPrecacheManifest(source: string, manifest: PrecacheManifestEntry[]): string {
  const placeholder = 'self.__WB_MANIFEST';
  const count = source.split(placeholder).length - 1;
  if (count !== 1) throw new Error(`Expected one ${placeholder} in the service worker, found ${count}`);
  return source.replace(placeholder, () => JSON.stringify(manifest));
}
