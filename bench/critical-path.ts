/**
 * The critical path of the child app (npm run bench:critical; issue 15): per file and in total, the
 * raw, gzip and brotli sizes of the JS the browser loads before the first render (the HTML's module
 * script and modulepreloads with their static imports), of the render-blocking CSS, and of the JS the
 * entry fetches at once behind the loading screen. Builds this checkout into a temporary folder;
 * BENCH_DIST=dist measures an existing build instead. The budget is checked in
 * tests/pwa/size-budget.test.ts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildForMeasurement,
  CRITICAL_JS_GZIP_BUDGET,
  formatSizes,
  measureCriticalPath,
  startPageJs,
} from '../scripts/critical-path.ts';
import { runBench } from './support.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function main() {
  const given = process.env.BENCH_DIST;
  const temp = given ? undefined : await mkdtemp(path.join(os.tmpdir(), 'bench-critical-'));
  const distDir = given ? path.resolve(root, given) : path.join(temp!, 'dist');
  try {
    if (temp) await buildForMeasurement(root, distDir);
    for (const page of ['index.html', 'personal/index.html']) {
      const measured = await measureCriticalPath(distDir, page);
      console.info(`\n== ${page} (${given ? distDir : 'fresh build'})`);
      console.info(formatSizes('JS before first render (the loading screen)', measured.js));
      console.info(formatSizes('Render-blocking CSS', measured.css));
      console.info(formatSizes('JS the entry fetches next (the app, with the start page)', measured.next));
      if (page === 'index.html') {
        const budget = CRITICAL_JS_GZIP_BUDGET;
        const startPage = startPageJs(measured).gzip;
        const verdict = startPage <= budget ? 'within' : 'OVER';
        console.info(
          `  JS before the start page is drawn: ${(startPage / 1024).toFixed(1)} KB of the budget's ${budget / 1024} KB gzip, ${verdict}`,
        );
      }
    }
  } finally {
    if (temp) await rm(temp, { recursive: true, force: true });
  }
}

runBench(main);
