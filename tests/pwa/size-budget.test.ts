import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_QUICK_EXIT_URL, QUICK_EXIT_ATTRIBUTE } from '../../contract/first-screen.ts';
import { launchChromium } from '../../harness/chromium.ts';
import {
  measureStartPageJs,
  START_PAGE_JS_GZIP_BUDGET,
  type StartPageJs,
} from '../../harness/start-page-js.ts';
import {
  buildForMeasurement,
  formatSizes,
  measureCriticalPath,
  type CriticalPath,
  type ModulesByFile,
} from '../../scripts/critical-path.ts';
import { QUICK_EXIT_TEXTS } from '../../src/quick-exit/texts.ts';
import { SHELL_TEXTS } from '../../src/ui-kit/texts.ts';
import { START_TEXTS } from '../../src/start/texts.ts';

// 'Fast on a cheap phone': the JS a child's phone must fetch before the logged-out start page is
// drawn, on a real production build of this checkout (into a temporary folder, so that `npm test`
// checks it before its own `vite build`), requested by a real page in Debian Chromium; sizes, not
// timings. Every variant is the same build and the same index.html (the variant comes from
// /config.json at run time).

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'size-budget-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function put(root: string, file: string, content: string) {
  await mkdir(path.dirname(path.join(root, file)), { recursive: true });
  await writeFile(path.join(root, file), content);
}

describe('critical path measurement', () => {
  it('counts the entry, its modulepreloads and their static imports, not what is imported dynamically', async () => {
    const dist = path.join(dir, 'dist-unit');
    await put(
      dist,
      'index.html',
      [
        '<!doctype html><head>',
        '<script type="module" crossorigin src="/assets/index-a.js"></script>',
        '<link rel="modulepreload" crossorigin href="/assets/react-b.js">',
        '<link rel="stylesheet" crossorigin href="/assets/index-c.css">',
        '</head>',
      ].join('\n'),
    );
    await put(dist, 'assets/index-a.js', 'import{r as e}from"./react-b.js";e(()=>import(`./app-d.js`));');
    await put(dist, 'assets/react-b.js', 'import"./shared-e.js";export const r=(f)=>f();');
    await put(dist, 'assets/shared-e.js', `export*from"./deep-f.js";`);
    await put(dist, 'assets/deep-f.js', `export const deep=${JSON.stringify('x'.repeat(2000))};`);
    await put(dist, 'assets/app-d.js', 'export const app=1;');
    await put(dist, 'assets/index-c.css', 'body{margin:0}');

    const measured = await measureCriticalPath(dist);

    expect(measured.js.files.map((f) => f.file).sort()).toEqual([
      'assets/deep-f.js',
      'assets/index-a.js',
      'assets/react-b.js',
      'assets/shared-e.js',
    ]);
    expect(measured.css.files.map((f) => f.file)).toEqual(['assets/index-c.css']);
    const deep = measured.js.files.find((f) => f.file === 'assets/deep-f.js')!;
    expect(deep.bytes).toBeGreaterThan(2000);
    expect(deep.gzip).toBeLessThan(deep.bytes);
    expect(measured.js.gzip).toBe(measured.js.files.reduce((sum, f) => sum + f.gzip, 0));
  });
});

describe('the production build', () => {
  let outDir: string;
  let modules: ModulesByFile;
  let critical: CriticalPath;
  let startPage: StartPageJs;
  let browser: Browser;

  const modulesOf = (files: { file: string }[]) => files.flatMap(({ file }) => modules.get(file) ?? []);
  const fromPackage = (ids: string[], name: string) =>
    ids.filter((id) => id.includes(`/node_modules/${name}/`));

  beforeAll(async () => {
    outDir = path.join(dir, 'dist');
    modules = await buildForMeasurement(repoRoot, outDir);
    critical = await measureCriticalPath(outDir);
    browser = await launchChromium();
    startPage = await measureStartPageJs(browser, outDir);
    console.info(
      [
        formatSizes("JS the page requested before 'Logga in' was drawn (budget: gzip total)", startPage.js),
        formatSizes('Render-blocking CSS', critical.css),
      ].join('\n'),
    );
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
  });

  it(`requests at most ${START_PAGE_JS_GZIP_BUDGET / 1024} KB of gzipped JS before the logged-out start page is drawn`, () => {
    // React, the shell and the signed-out start page: with the data layer on this path it was 143 KB.
    expect(startPage.js.files.length).toBeGreaterThan(0);
    expect(startPage.js.gzip).toBeLessThanOrEqual(START_PAGE_JS_GZIP_BUDGET);
  });

  it('runs React DOM, and nothing of Preact is in the build', () => {
    const all = [...modules.values()].flat();
    expect(fromPackage(all, 'preact')).toEqual([]);
    expect(fromPackage(modulesOf(startPage.js.files), 'react-dom').length).toBeGreaterThan(0);
  });

  it('draws the signed-out start page without the data layer (Dexie, the Comlink bridge)', () => {
    const beforeLogin = modulesOf(startPage.js.files);
    expect(beforeLogin.length).toBeGreaterThan(0);
    expect(fromPackage(beforeLogin, 'dexie')).toEqual([]);
    expect(fromPackage(beforeLogin, 'comlink')).toEqual([]);
    expect(beforeLogin.filter((id) => id.includes('/worker/client/worker-bridge.ts'))).toEqual([]);
    // ...which is in the build, for the pages after it.
    expect(fromPackage([...modules.values()].flat(), 'dexie').length).toBeGreaterThan(0);
  });

  it('fetches the first screen in three JS files at most (one request each on slow 4G)', () => {
    // React (shared with the staff console), a piece of the router it shares too, and the page's
    // entry with the whole first screen (scripts/vite-plugin-first-screen-chunk.ts); without the
    // plugin, a dozen.
    expect(startPage.js.files.length).toBeLessThanOrEqual(3);
  });

  it('blocks the first render on one stylesheet at most, which goes before the scripts', async () => {
    expect(critical.css.files.length).toBeLessThanOrEqual(1);
    // The first screen is painted without the scripts: they are fetched at low priority.
    const html = await readFile(path.join(outDir, 'index.html'), 'utf8');
    const tags = [...html.matchAll(/<(?:script|link rel="modulepreload")\s[^>]*>/g)].map(([tag]) => tag);
    expect(tags.length).toBe(startPage.js.files.length);
    expect(tags.filter((tag) => !tag.includes('fetchpriority="low"'))).toEqual([]);
  });

  it('carries the first screen in index.html: the shell, quick exit and the emergency number, never a login', async () => {
    const html = await readFile(path.join(outDir, 'index.html'), 'utf8');
    const root = /<div id="root">([\s\S]*)<\/div>\s*<\/body>/.exec(html)?.[1] ?? '';
    expect(root).toContain(`<a ${QUICK_EXIT_ATTRIBUTE}="" href="${DEFAULT_QUICK_EXIT_URL}" role="button"`);
    expect(root).toContain(`>${QUICK_EXIT_TEXTS.leave}</a>`);
    expect(root).toContain(`<a href="tel:112">${SHELL_TEXTS.emergency}</a>`);
    expect(root).toContain('<h1>Stödlinjen</h1>');
    expect(root).toContain(`<span>${SHELL_TEXTS.loading}</span>`);
    expect(root).toContain(`${SHELL_TEXTS.backTo}<!-- --> <!-- -->Stödlinjen`);
    expect(root).not.toContain(START_TEXTS.login);
    // Painted with the one stylesheet: every class the markup names is defined there.
    const css = (
      await Promise.all(critical.css.files.map((f) => readFile(path.join(outDir, f.file), 'utf8')))
    ).join('\n');
    const classes = [...root.matchAll(/class="([^"]*)"/g)].flatMap(([, names]) => names!.split(/\s+/));
    // The shell's first class carries the page-wide rules (:global() only, no rule of its own).
    const [pageWide, ...styled] = [...new Set(classes)].filter(Boolean);
    expect(css).toContain('box-sizing:border-box');
    expect(styled.filter((name) => !css.includes(`.${name}`))).toEqual([]);
    expect(pageWide).toBeDefined();
    // The staff console's page is its own: no child-app shell in it.
    expect(await readFile(path.join(outDir, 'personal/index.html'), 'utf8')).not.toContain(
      QUICK_EXIT_ATTRIBUTE,
    );
  });

  it('precaches the first screen and the app behind it, so an installed app still starts offline', async () => {
    const sw = await readFile(path.join(outDir, 'sw.js'), 'utf8');
    const app = [...modules.keys()].filter((file) => /^assets\/app-[\w-]+\.js$/.test(file));
    expect(app).toHaveLength(1);
    for (const file of [...startPage.js.files.map((f) => f.file), ...app])
      expect(sw).toContain(`\`${file}\``);
  });
});
