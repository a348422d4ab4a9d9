// Build-time (Node) code: a Vite plugin that, after the app is written to dist/, bundles the service
// worker into dist/sw.js with the precache manifest of that very dist/ injected (what vite-plugin-pwa's
// injectManifest does, in a few lines).
import path from 'node:path';
import { existsSync } from 'node:fs';
import { build, type Plugin, type ResolvedConfig } from 'vite';
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
}

export function serviceWorkerPlugin({ entry, fileName = 'sw.js' }: ServiceWorkerPluginOptions): Plugin {
  let config: ResolvedConfig;
  // closeBundle also runs after a failed build; only a build that wrote dist/ gets a service worker.
  let written = false;
  return {
    name: 'portal:service-worker',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    buildStart() {
      written = false;
    },
    writeBundle() {
      written = true;
    },
    async closeBundle() {
      const outDir = path.resolve(config.root, config.build.outDir);
      if (!written || config.build.ssr || !existsSync(path.join(outDir, 'index.html'))) return;
      const manifest = await buildPrecacheManifest(outDir, { assetsDir: config.build.assetsDir });
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
