// Build-time (Node) code: the child app's first HTML is a real first screen. index.html's #root gets
// the markup of the app's first render (src/prerender.tsx: the shell with 'Lämna sidan', 'Är det
// akut? Ring 112.', the header and the footer, and the neutral start page), rendered with
// react-dom/server, so it is painted with the HTML and its one stylesheet, and the quick exit works
// as a plain link while the app's script is still on its way; the entry hydrates it.
//
// The prerender module is bundled for Node in a build of its own with the same style transform
// (wyw-in-js: the class names are the client build's), then run once.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin, type PluginOption } from 'vite';

export interface PrerenderShellOptions {
  /** The project root. */
  root: string;
  /** The module (relative to root) whose `prerenderFirstScreen()` answers the markup. */
  entry: string;
  /** The page (relative to root) whose `<div id="root"></div>` gets it. */
  page: string;
  /** The plugins that transform the app's modules as in the client build (React, styles). */
  plugins: () => PluginOption[];
  define: Record<string, string>;
}

const EMPTY_ROOT = '<div id="root"></div>';

/**
 * Bundles `entry` for Node into a temporary folder, runs its `prerenderFirstScreen()`. The folder is
 * inside the project (node_modules/.cache), so that the bundle's imports of React and the other
 * packages resolve to the project's own.
 */
async function renderFirstScreen(options: PrerenderShellOptions): Promise<string> {
  const cache = path.join(options.root, 'node_modules', '.cache');
  await mkdir(cache, { recursive: true });
  const outDir = await mkdtemp(path.join(cache, 'portal-prerender-'));
  try {
    await build({
      configFile: false,
      root: options.root,
      logLevel: 'warn',
      define: options.define,
      plugins: options.plugins(),
      build: {
        ssr: path.join(options.root, options.entry),
        outDir,
        emptyOutDir: true,
        sourcemap: false,
        minify: false,
        rolldownOptions: { output: { entryFileNames: 'prerender.mjs' } },
      },
    });
    const module = (await import(pathToFileURL(path.join(outDir, 'prerender.mjs')).href)) as {
      prerenderFirstScreen: () => string;
    };
    return module.prerenderFirstScreen();
  } finally {
    if (!process.env.KEEP_PRERENDER) await rm(outDir, { recursive: true, force: true });
  }
}

export function prerenderShellPlugin(options: PrerenderShellOptions): Plugin {
  return {
    name: 'prerender-shell',
    apply: 'build',
    transformIndexHtml: {
      order: 'pre',
      async handler(html, ctx) {
        if (path.resolve(options.root, ctx.filename) !== path.resolve(options.root, options.page))
          return html;
        if (!html.includes(EMPTY_ROOT))
          throw new Error(`${options.page} has no ${EMPTY_ROOT} to prerender into`);
        const markup = await renderFirstScreen(options);
        return html.replace(EMPTY_ROOT, `<div id="root">${markup}</div>`);
      },
    },
  };
}

/**
 * The page's module scripts and their modulepreloads at low fetch priority: the first HTML with its
 * one stylesheet is the first screen, and nothing the scripts do is needed to paint it, so the
 * stylesheet goes first on a slow line (a script in the head is fetched at high priority, as if the
 * paint waited for it). Lighthouse's simulated first paint of the logged-out start page went from
 * 1.6-1.7 s to 0.8 s with it (npm run bench:lighthouse), its largest paint staying at 1.8-2.1 s.
 */
export function firstPaintFirstPlugin({ root, page }: { root: string; page: string }): Plugin {
  return {
    name: 'first-paint-first',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (path.resolve(root, ctx.filename) !== path.resolve(root, page)) return html;
        return html
          .replaceAll(
            '<script type="module" crossorigin',
            '<script type="module" fetchpriority="low" crossorigin',
          )
          .replaceAll(
            '<link rel="modulepreload" crossorigin',
            '<link rel="modulepreload" fetchpriority="low" crossorigin',
          );
      },
    },
  };
}
