import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import wyw from '@wyw-in-js/vite';
import { serviceWorkerPlugin } from './sw/vite-plugin-service-worker.ts';
import { precompressPlugin } from './scripts/vite-plugin-precompress.ts';
import { firstScreenChunkPlugin } from './scripts/vite-plugin-first-screen-chunk.ts';
import { bootScreenMarkup } from './src/config/boot-screen-markup.ts';
import { reactAlias } from './scripts/react-alias.ts';

/** One id per build, compiled into both the UI and the worker for the build-id handshake. */
const BUILD_ID = process.env.BUILD_ID ?? new Date().toISOString().replace(/\D/g, '').slice(0, 14);

export default defineConfig({
  define: { __BUILD_ID__: JSON.stringify(BUILD_ID) },
  resolve: { alias: reactAlias },
  plugins: [
    react(),
    wyw({
      include: ['src/**/*.{ts,tsx}', 'staff-console/**/*.{ts,tsx}', 'client-kit/**/*.{ts,tsx}'],
      babelOptions: { presets: ['@babel/preset-typescript', '@babel/preset-react'] },
    }),
    // The loading screen as static markup in the child app's index.html (issue 15: painted with the
    // HTML and its one stylesheet, before any script; React replaces it).
    {
      name: 'boot-screen-markup',
      transformIndexHtml: {
        order: 'pre',
        handler: (html, ctx) =>
          ctx.path === '/index.html'
            ? html.replace('<div id="root"></div>', `<div id="root">${bootScreenMarkup()}</div>`)
            : html,
      },
    },
    // The app's code behind the loading screen in one chunk instead of a dozen (one request).
    firstScreenChunkPlugin({
      root: fileURLToPath(new URL('.', import.meta.url)),
      app: 'src/app.tsx',
    }),
    // dist/sw.js with the precache list of the finished dist/ (runs after the app is written).
    // The staff console's own chunks are no part of the child app's offline shell.
    serviceWorkerPlugin({ entry: 'sw/service-worker.ts', otherPages: ['personal/index.html'] }),
    // dist/**/*.br and *.gz beside every text file, served by Accept-Encoding (server/app.ts).
    precompressPlugin(),
  ],
  build: {
    outDir: 'dist',
    // No source maps in the served build: they would hand out the source of every page.
    sourcemap: false,
    emptyOutDir: true,
    // Two pages: the child app and the staff console (/personal), each with its own bundle.
    rolldownOptions: {
      input: {
        index: fileURLToPath(new URL('index.html', import.meta.url)),
        personal: fileURLToPath(new URL('personal/index.html', import.meta.url)),
      },
    },
  },
  worker: { format: 'es' },
  server: {
    proxy: {
      '/portal': 'http://127.0.0.1:8080',
      '/connect': 'http://127.0.0.1:8080',
      '/.well-known': 'http://127.0.0.1:8080',
      '/config.json': 'http://127.0.0.1:8080',
      '/hubs': { target: 'http://127.0.0.1:8080', ws: true },
    },
  },
});
