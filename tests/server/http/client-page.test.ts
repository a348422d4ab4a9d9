import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_QUICK_EXIT_URL, QUICK_EXIT_ATTRIBUTE } from '../../../contract/first-screen.ts';
import { precompressDir } from '../../../scripts/vite-plugin-precompress.ts';
import { startTestServer, type TestServer } from '../../../harness/test-server.ts';

/**
 * The first HTML's 'Lämna sidan' works before any script as a plain link: the server fills the
 * configured neutral page (QUICK_EXIT_URL) into the index.html it hands out, for every client route
 * and every encoding, where the build wrote its default.
 */
const link = (href: string) => `<a ${QUICK_EXIT_ATTRIBUTE}="" href="${href}" role="button">Lämna sidan</a>`;
const CONFIGURED = 'https://www.example.se/nyheter?sida=1&lista=2';
let server: TestServer;
let clientDir: string;

beforeAll(async () => {
  clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-client-page-'));
  // As the build writes it: the shell with the default address, long enough to be precompressed.
  fs.writeFileSync(
    path.join(clientDir, 'index.html'),
    `<!doctype html><title>Stödlinjen</title><div id="root">${link(DEFAULT_QUICK_EXIT_URL)}${'<p>x</p>'.repeat(300)}</div>`,
  );
  await precompressDir(clientDir);
  server = await startTestServer({ config: { clientDir, quickExitUrl: CONFIGURED } });
});
afterAll(async () => {
  await server?.dispose();
  fs.rmSync(clientDir, { recursive: true, force: true });
});

const get = (pathName: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${pathName}`, { headers });

describe('the child app page', () => {
  it('leads its quick exit to the configured page on every client route, in every encoding', async () => {
    for (const page of ['/', '/index.html?__WB_REVISION__=abc', '/mina-sidor', '/tillfalle/12']) {
      for (const [accept, encoding] of [
        ['br, gzip', 'br'],
        ['gzip', 'gzip'],
        ['identity', null],
      ] as const) {
        const res = await get(page, { 'Accept-Encoding': accept });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/^text\/html/);
        expect(res.headers.get('content-encoding')).toBe(encoding);
        expect(res.headers.get('cache-control')).toBe('no-cache');
        expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
        const html = await res.text();
        expect(html).toContain(link('https://www.example.se/nyheter?sida=1&amp;lista=2'));
        expect(html).not.toContain(DEFAULT_QUICK_EXIT_URL);
      }
    }
  });

  it('is not sent again to a browser that holds the same page', async () => {
    const first = await get('/');
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await get('/mina-sidor', { 'If-None-Match': etag! });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect((await get('/', { 'If-None-Match': '"another"' })).status).toBe(200);
  });

  it('still answers 404 for a file that is not there', async () => {
    expect((await get('/assets/nothing-here.js')).status).toBe(404);
  });
});
