import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import wyw from '@wyw-in-js/vite';
import { serviceWorkerPlugin } from './sw/vite-plugin-service-worker.ts';
import { precompressPlugin } from './scripts/vite-plugin-precompress.ts';
import { firstScreenChunkPlugin } from './scripts/vite-plugin-first-screen-chunk.ts';
import { firstPaintFirstPlugin, prerenderShellPlugin } from './scripts/vite-plugin-prerender-shell.ts';

/** One id per build, compiled into both the UI and the worker for the build-id handshake. */
const BUILD_ID = process.env.BUILD_ID ?? new Date().toISOString().replace(/\D/g, '').slice(0, 14);

const define = { __BUILD_ID__: JSON.stringify(BUILD_ID) };

/** How the app's modules are transformed: React's JSX, and the styles extracted at build (linaria). */
const appTransforms = () => [
  react(),
  wyw({
    include: ['src/**/*.{ts,tsx}', 'staff-console/**/*.{ts,tsx}', 'client-kit/**/*.{ts,tsx}'],
    babelOptions: { presets: ['@babel/preset-typescript', '@babel/preset-react'] },
  }),
];

export default defineConfig({
  define,
  plugins: [
    ...appTransforms(),
    // index.html's #root carries the app's first render (the shell and the neutral start page),
    // rendered with react-dom/server; the entry hydrates it.
    prerenderShellPlugin({
      root: fileURLToPath(new URL('.', import.meta.url)),
      entry: 'src/prerender.tsx',
      page: 'index.html',
      plugins: appTransforms,
      define,
    }),
    firstPaintFirstPlugin({ root: fileURLToPath(new URL('.', import.meta.url)), page: 'index.html' }),
    // The first screen in one chunk and one stylesheet, and what a signed-in child's first screen
    // needs beyond it in one more (the data layer and the signed-in parts of the start page and
    // the shell), instead of a dozen each: every chunk is a request.
    firstScreenChunkPlugin({
      root: fileURLToPath(new URL('.', import.meta.url)),
      page: 'index.html',
      app: [
        'src/data/data-layer.ts',
        'src/start/signed-in-start.tsx',
        'src/header/signed-in-actions.tsx',
        'src/one-to-one-chat/child-chat-host.tsx',
      ],
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
