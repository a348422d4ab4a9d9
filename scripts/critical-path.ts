// Build-time (Node) code: what a built page makes the browser load before its first render ('Fast on
// a cheap phone'). Read from the finished dist/: the page's module scripts and modulepreload links,
// followed through the static imports of each chunk (parsed, not guessed), and its stylesheets. Used
// by the size budget (tests/pwa/size-budget.test.ts) and by `npm run bench:critical`, beside what a
// browser requests before the start page is drawn (bench/start-page-js.ts).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { build, parseAst } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

export interface SizedFile {
  /** Path inside dist/, e.g. `assets/index-abc123.js`. */
  file: string;
  bytes: number;
  /** At the levels the server's precompressed copies use (scripts/vite-plugin-precompress.ts). */
  gzip: number;
  brotli: number;
}

export interface Sizes {
  files: SizedFile[];
  bytes: number;
  gzip: number;
  brotli: number;
}

export interface CriticalPath {
  /** Every JS file loaded before the first render: entries, modulepreloads and their static imports. */
  js: Sizes;
  /** Render-blocking stylesheets (`<link rel="stylesheet">`). */
  css: Sizes;
}

/** The sizes of `files` (paths inside `distDir`), each and in total. */
export async function sized(distDir: string, files: Iterable<string>): Promise<Sizes> {
  const list: SizedFile[] = [];
  for (const file of files) {
    const content = await readFile(path.join(distDir, file));
    const [asGz, asBr] = await Promise.all([
      gzip(content, { level: zlib.constants.Z_BEST_COMPRESSION }),
      brotli(content, {
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY },
      }),
    ]);
    list.push({ file, bytes: content.length, gzip: asGz.length, brotli: asBr.length });
  }
  const sum = (key: 'bytes' | 'gzip' | 'brotli') => list.reduce((total, f) => total + f[key], 0);
  return { files: list, bytes: sum('bytes'), gzip: sum('gzip'), brotli: sum('brotli') };
}

/** A site-root URL of the HTML (`/assets/x.js`) or a specifier relative to `from`, as a dist/ path. */
function distPath(url: string, from = ''): string {
  const resolved = url.startsWith('/') ? url.slice(1) : path.posix.join(path.posix.dirname(from), url);
  return path.posix.normalize(resolved);
}

function attribute(tag: string, name: string): string | undefined {
  return new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`, 'i').exec(tag)?.[1];
}

/** The module scripts, modulepreloads and stylesheets that the HTML names. */
export function pageResources(html: string): {
  scripts: string[];
  preloads: string[];
  stylesheets: string[];
} {
  const scripts: string[] = [];
  const preloads: string[] = [];
  const stylesheets: string[] = [];
  for (const [tag] of html.matchAll(/<script\b[^>]*>/gi)) {
    const src = attribute(tag, 'src');
    if (src) scripts.push(distPath(src));
  }
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    const rel = attribute(tag, 'rel')?.toLowerCase();
    const href = attribute(tag, 'href');
    if (!href) continue;
    if (rel === 'modulepreload') preloads.push(distPath(href));
    if (rel === 'stylesheet') stylesheets.push(distPath(href));
  }
  return { scripts, preloads, stylesheets };
}

interface Specifier {
  type: string;
  value?: unknown;
  expressions?: unknown[];
  quasis?: { value: { cooked?: string | null } }[];
}

/** A string literal, or a template literal without expressions (rolldown writes `import(\`./x.js\`)`). */
function specifierText(node: Specifier | null | undefined): string | undefined {
  if (!node) return undefined;
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral' && node.expressions?.length === 0)
    return node.quasis?.[0]?.value.cooked ?? undefined;
  return undefined;
}

/** The static (`import ... from`, `export ... from`) and dynamic (`import('...')`) imports of a chunk. */
export function chunkImports(code: string): { staticImports: string[]; dynamicImports: string[] } {
  const staticImports: string[] = [];
  const dynamicImports: string[] = [];
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    const n = node as { type?: string; source?: Specifier | null };
    const source = specifierText(n.source);
    if (
      typeof source === 'string' &&
      (n.type === 'ImportDeclaration' ||
        n.type === 'ExportAllDeclaration' ||
        n.type === 'ExportNamedDeclaration')
    )
      staticImports.push(source);
    if (n.type === 'ImportExpression' && typeof source === 'string') dynamicImports.push(source);
    for (const value of Object.values(n)) if (value && typeof value === 'object') visit(value);
  };
  visit(parseAst(code));
  return { staticImports, dynamicImports };
}

/** Local JS files only: a bare or absolute-URL specifier is no file of dist/. */
const isLocal = (specifier: string) =>
  specifier.startsWith('./') || specifier.startsWith('../') || specifier.startsWith('/');

/** `roots` and every file they import statically, directly or not. */
async function staticClosure(distDir: string, roots: string[]): Promise<Set<string>> {
  const files = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (files.has(file)) continue;
    files.add(file);
    const { staticImports } = chunkImports(await readFile(path.join(distDir, file), 'utf8'));
    for (const specifier of staticImports) if (isLocal(specifier)) queue.push(distPath(specifier, file));
  }
  return files;
}

/** The critical path of one built page (`index.html` by default) of `distDir`. */
export async function measureCriticalPath(distDir: string, page = 'index.html'): Promise<CriticalPath> {
  const { scripts, preloads, stylesheets } = pageResources(await readFile(path.join(distDir, page), 'utf8'));
  return {
    js: await sized(distDir, await staticClosure(distDir, [...scripts, ...preloads])),
    css: await sized(distDir, stylesheets),
  };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** A table of the sizes, for test output and the bench. */
export function formatSizes(title: string, sizes: Sizes): string {
  const rows = sizes.files.map(
    (f) =>
      `  ${f.file.padEnd(48)} ${kb(f.bytes).padStart(10)} ${kb(f.gzip).padStart(10)} ${kb(f.brotli).padStart(10)}`,
  );
  return [
    `${title}`,
    `  ${'file'.padEnd(48)} ${'raw'.padStart(10)} ${'gzip'.padStart(10)} ${'brotli'.padStart(10)}`,
    ...rows,
    `  ${'total'.padEnd(48)} ${kb(sizes.bytes).padStart(10)} ${kb(sizes.gzip).padStart(10)} ${kb(sizes.brotli).padStart(10)}`,
  ].join('\n');
}

/** Each JS file of a build (its path in dist/) and the modules bundled into it (their ids). */
export type ModulesByFile = Map<string, string[]>;

/**
 * A production build of the project at `root` into `outDir`, as `vite build` makes it (also where
 * NODE_ENV says otherwise, as under vitest: that would give React's development build); answers
 * which modules went into which file.
 */
export async function buildForMeasurement(root: string, outDir: string): Promise<ModulesByFile> {
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  const modules: ModulesByFile = new Map();
  try {
    await build({
      configFile: path.join(root, 'vite.config.ts'),
      root,
      mode: 'production',
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true },
      plugins: [
        {
          name: 'modules-by-file',
          generateBundle(_options, bundle) {
            for (const [file, item] of Object.entries(bundle))
              if (item.type === 'chunk') modules.set(file, Object.keys(item.modules));
          },
        },
      ],
    });
    return modules;
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}
