// Build-time (Node) code: a Vite plugin that, after the app is written to dist/, bundles the service
// worker into dist/sw.js with the precache manifest of that very dist/ injected (what vite-plugin-pwa's
// injectManifest does, in a few lines).
import path from 'node:path';
import { existsSync } from 'node:fs';
import { build, type Plugin, type ResolvedConfig, type Rollup } from 'vite';
import {
  buildPrecacheManifest,
  injectPrecacheManifest,
  type PrecacheManifestEntry,
} from './precache-manifest.ts';

export interface ServiceWorkerPluginOptions {
  /** The service worker source, relative to the project root. */
  entry: string;
  /** The output file in dist/, served at the site root so that its scope is the whole app. */
  fileName?: string;
  /**
   * HTML entries (relative to the project root) of pages that are no part of the app, such as the
   * staff console: the files only they reach are left out of the precache list.
   */
  otherPages?: string[];
}

/** Output files reachable from one entry chunk: its imports (static and dynamic), CSS and assets. */
function reachableFiles(bundle: Rollup.OutputBundle, entryFile: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const item = bundle[file];
    if (!item || item.type !== 'chunk') return;
    for (const next of [...item.imports, ...item.dynamicImports]) visit(next);
    for (const css of item.viteMetadata?.importedCss ?? []) seen.add(css);
    for (const asset of item.viteMetadata?.importedAssets ?? []) seen.add(asset);
  };
  visit(entryFile);
  return seen;
}

/** Files that only the other pages' entries reach (a chunk shared with the app, e.g. React, stays). */
export function otherPagesOnlyFiles(
  bundle: Rollup.OutputBundle,
  isOtherPage: (facadeModuleId: string) => boolean,
): Set<string> {
  const app = new Set<string>();
  const other = new Set<string>();
  for (const item of Object.values(bundle)) {
    if (item.type !== 'chunk' || !item.isEntry || !item.facadeModuleId) continue;
    const into = isOtherPage(item.facadeModuleId) ? other : app;
    for (const file of reachableFiles(bundle, item.fileName)) into.add(file);
  }
  for (const file of app) other.delete(file);
  for (const file of [...other]) other.add(`${file}.map`);
  return other;
}

export function serviceWorkerPlugin({
  entry,
  fileName = 'sw.js',
  otherPages = [],
}: ServiceWorkerPluginOptions): Plugin {
  let config: ResolvedConfig;
  // closeBundle also runs after a failed build; only a build that wrote dist/ gets a service worker.
  let written = false;
  let otherFiles = new Set<string>();
  return {
    name: 'portal:service-worker',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    buildStart() {
      written = false;
      otherFiles = new Set();
    },
    writeBundle(_options, bundle) {
      written = true;
      const pages = otherPages.map((page) => path.resolve(config.root, page));
      // An HTML entry's chunk has the HTML file itself as facade module (Vite's html plugin).
      otherFiles = otherPagesOnlyFiles(bundle, (id) => pages.includes(path.resolve(id.split('?')[0] ?? id)));
    },
    async closeBundle() {
      const outDir = path.resolve(config.root, config.build.outDir);
      if (!written || config.build.ssr || !existsSync(path.join(outDir, 'index.html'))) return;
      const manifest = await buildPrecacheManifest(outDir, {
        assetsDir: config.build.assetsDir,
        excludeFiles: otherFiles,
      });
      await buildServiceWorker(config, path.resolve(config.root, entry), fileName, manifest);
      config.logger.info(`service worker: ${fileName} precaches ${manifest.length} files`);
    },
  };
}

async function buildServiceWorker(
  config: ResolvedConfig,
  entry: string,
  fileName: string,
  manifest: PrecacheManifestEntry[],
) {
  await build({
    configFile: false,
    root: config.root,
    mode: 'production',
    logLevel: 'warn',
    publicDir: false,
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    plugins: [
      {
        name: 'portal:service-worker-manifest',
        transform(code, id) {
          return path.resolve(id) === entry ? injectPrecacheManifest(code, manifest) : null;
        },
      },
    ],
    build: {
      outDir: path.resolve(config.root, config.build.outDir),
      emptyOutDir: false,
      copyPublicDir: false,
      sourcemap: false,
      minify: true,
      target: 'es2022',
      rolldownOptions: {
        input: entry,
        // Classic script (iife): every browser that installs the PWA can run it, no module workers needed.
        output: { format: 'iife', entryFileNames: fileName },
      },
    },
  });
}
