import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'vite';
import {
  buildPrecacheManifest,
  injectPrecacheManifest,
  isHashedAsset,
  revisionOf,
  type PrecacheManifestEntry,
} from '../../sw/precache-manifest.ts';
import { serviceWorkerPlugin } from '../../sw/vite-plugin-service-worker.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'pwa-manifest-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function put(root: string, file: string, content: string) {
  await mkdir(path.dirname(path.join(root, file)), { recursive: true });
  await writeFile(path.join(root, file), content);
}

describe('precache manifest', () => {
  it('lists hashed assets without revision, other files with a content hash, no maps or sw.js', async () => {
    const dist = path.join(dir, 'dist-unit');
    await put(dist, 'index.html', '<!doctype html><title>Stödlinjen</title>');
    await put(dist, 'manifest.webmanifest', '{}');
    await put(dist, 'icon-maskable-512.png', 'png');
    await put(dist, 'assets/index-B7JxWNGF.js', 'app');
    await put(dist, 'assets/index-B7JxWNGF.js.map', 'map');
    await put(dist, 'assets/portal-worker-Ab_c-123.js', 'worker');
    await put(dist, 'sw.js', 'old service worker');

    const manifest = await buildPrecacheManifest(dist);

    expect(manifest).toEqual([
      { url: 'assets/index-B7JxWNGF.js', revision: null },
      { url: 'assets/portal-worker-Ab_c-123.js', revision: null },
      { url: 'icon-maskable-512.png', revision: revisionOf(Buffer.from('png')) },
      { url: 'index.html', revision: revisionOf(Buffer.from('<!doctype html><title>Stödlinjen</title>')) },
      { url: 'manifest.webmanifest', revision: revisionOf(Buffer.from('{}')) },
    ]);
  });

  it('treats only names with a Vite hash inside the assets folder as hashed', () => {
    expect(isHashedAsset('assets/index-B7JxWNGF.js')).toBe(true);
    expect(isHashedAsset('assets/logo.svg')).toBe(false);
    expect(isHashedAsset('icon-maskable-512.png')).toBe(false);
    expect(isHashedAsset('index-B7JxWNGF.js')).toBe(false);
  });

  it('injects the list in place of the one self.__WB_MANIFEST', () => {
    const entries: PrecacheManifestEntry[] = [{ url: 'index.html', revision: 'abc' }];
    expect(injectPrecacheManifest('precacheAndRoute(self.__WB_MANIFEST);', entries)).toBe(
      'precacheAndRoute([{"url":"index.html","revision":"abc"}]);',
    );
    expect(() => injectPrecacheManifest('precacheAndRoute([]);', entries)).toThrow(/found 0/);
  });
});

describe('service worker build', () => {
  it('writes dist/sw.js precaching index.html with a revision, hashed assets and worker chunks', async () => {
    const root = path.join(dir, 'app');
    await put(
      root,
      'index.html',
      '<!doctype html><div id="root"></div><script type="module" src="/main.js"></script>',
    );
    await put(
      root,
      'main.js',
      "new SharedWorker(new URL('./data-worker.js', import.meta.url), { type: 'module' });\n",
    );
    await put(root, 'data-worker.js', 'self.onconnect = () => {};\n');
    await put(root, 'public/manifest.webmanifest', '{"name":"Stödlinjen"}');

    await build({
      configFile: false,
      root,
      logLevel: 'silent',
      build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
      worker: { format: 'es' },
      plugins: [serviceWorkerPlugin({ entry: path.join(repoRoot, 'sw/service-worker.ts') })],
    });

    const sw = await readFile(path.join(root, 'dist/sw.js'), 'utf8');
    const html = await readFile(path.join(root, 'dist/index.html'));
    expect(sw).not.toContain('__WB_MANIFEST');
    expect(sw).not.toContain('process.env');
    expect(precachedIn(sw)).toEqual([
      { url: expect.stringMatching(/^assets\/data-worker-[\w-]{8}\.js$/), revision: null },
      { url: expect.stringMatching(/^assets\/index-[\w-]{8}\.js$/), revision: null },
      { url: 'index.html', revision: revisionOf(html) },
      { url: 'manifest.webmanifest', revision: expect.stringMatching(/^[0-9a-f]{32}$/) },
    ]);
    expect(sw).toContain('SKIP_WAITING');
  });
});

/** The entries as the minifier writes them: `{url:`index.html`,revision:`...`}`. */
function precachedIn(sw: string): PrecacheManifestEntry[] {
  return [...sw.matchAll(/\{url:`([^`]+)`,revision:(?:null|`([0-9a-f]+)`)\}/g)].map(([, url, revision]) => ({
    url: url!,
    revision: revision ?? null,
  }));
}
