/**
 * The critical path of the child app (npm run bench:critical): the JS a first visit's page requests
 * before the logged-out start page is drawn ('Logga in' visible; measured in Debian Chromium against
 * a production server, bench/start-page-js.ts) against its budget, per file and in total (raw, gzip,
 * brotli); and for each page (the child app's and the staff console's) the JS and CSS its HTML loads
 * before the first render. Builds this checkout into a temporary folder; BENCH_DIST=dist measures an
 * existing build instead (another checkout's too). The budget is checked in
 * tests/pwa/size-budget.test.ts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildForMeasurement, formatSizes, measureCriticalPath } from '../scripts/critical-path.ts';
import { measureStartPageJs, START_PAGE_JS_GZIP_BUDGET } from '../harness/start-page-js.ts';
import { launchChromium } from '../harness/chromium.ts';
import { runBench } from './support.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function main() {
  const given = process.env.BENCH_DIST;
  const temp = given ? undefined : await mkdtemp(path.join(os.tmpdir(), 'bench-critical-'));
  const distDir = given ? path.resolve(root, given) : path.join(temp!, 'dist');
  const browser = await launchChromium();
  try {
    if (temp) await buildForMeasurement(root, distDir);
    console.info(`== ${given ? distDir : 'fresh build'}`);
    const startPage = await measureStartPageJs(browser, distDir);
    console.info(formatSizes("JS the page requested before 'Logga in' was drawn", startPage.js));
    const verdict = startPage.js.gzip <= START_PAGE_JS_GZIP_BUDGET ? 'within' : 'OVER';
    console.info(
      `  ${(startPage.js.gzip / 1024).toFixed(1)} KB of the budget's ${START_PAGE_JS_GZIP_BUDGET / 1024} KB gzip, ${verdict}; drawn ${startPage.drawnAtMs} ms after navigation on this host, unthrottled`,
    );
    for (const page of ['index.html', 'personal/index.html']) {
      const measured = await measureCriticalPath(distDir, page);
      console.info(`\n== ${page}`);
      console.info(formatSizes('JS its HTML loads before the first render', measured.js));
      console.info(formatSizes('Render-blocking CSS', measured.css));
    }
  } finally {
    await browser.close();
    if (temp) await rm(temp, { recursive: true, force: true });
  }
}

runBench(main);
