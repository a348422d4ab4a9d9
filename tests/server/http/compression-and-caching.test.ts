import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../../scripts/vite-plugin-precompress.ts';
import { startTestServer, type TestServer } from '../../../harness/test-server.ts';

/**
 * Transfer: the build's text files go out brotli- or gzip-compressed by negotiation, the
 * hashed assets are cached for a year, and the pages and the service worker are revalidated.
 */
let server: TestServer;
let clientDir: string;
const SCRIPT = `export const texts = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => `Meddelande nummer ${i}`))};\n`;

beforeAll(async () => {
  clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-client-'));
  fs.writeFileSync(
    path.join(clientDir, 'index.html'),
    `<!doctype html><title>Stödlinjen</title>${'<p>x</p>'.repeat(300)}`,
  );
  fs.writeFileSync(
    path.join(clientDir, 'sw.js'),
    `self.addEventListener('fetch', () => {});\n${'// sw\n'.repeat(300)}`,
  );
  fs.mkdirSync(path.join(clientDir, 'assets'));
  fs.writeFileSync(path.join(clientDir, 'assets', 'index-Ab12Cd.js'), SCRIPT);
  fs.writeFileSync(path.join(clientDir, 'assets', 'tiny-Zz99.js'), 'export {};\n');
  await precompressDir(clientDir);
  server = await startTestServer({ config: { clientDir } });
});
afterAll(async () => {
  await server?.dispose();
  fs.rmSync(clientDir, { recursive: true, force: true });
});

/** Node's fetch decodes the body by itself; the headers say what went over the wire. */
const raw = (pathName: string, acceptEncoding: string) =>
  fetch(`${server.url}${pathName}`, { headers: { 'Accept-Encoding': acceptEncoding } });

describe('built files', () => {
  it('are precompressed at build: a .br and a .gz beside every text file over 1 KB', () => {
    const assets = fs.readdirSync(path.join(clientDir, 'assets')).sort();
    expect(assets).toEqual(['index-Ab12Cd.js', 'index-Ab12Cd.js.br', 'index-Ab12Cd.js.gz', 'tiny-Zz99.js']);
    const br = fs.readFileSync(path.join(clientDir, 'assets', 'index-Ab12Cd.js.br'));
    expect(zlib.brotliDecompressSync(br).toString()).toBe(SCRIPT);
  });

  it('go out as brotli, gzip or plain by Accept-Encoding, always with Vary', async () => {
    for (const [accept, encoding] of [
      ['br, gzip', 'br'],
      ['gzip', 'gzip'],
      ['identity', null],
    ] as const) {
      const res = await raw('/assets/index-Ab12Cd.js', accept);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
      expect(res.headers.get('content-type')).toMatch(/javascript/);
      // fetch decodes what it was sent: the same script in every case.
      expect(await res.text()).toBe(SCRIPT);
    }
  });

  it('keep hashed assets a year and revalidate the page and the service worker', async () => {
    expect((await raw('/assets/index-Ab12Cd.js', 'br')).headers.get('cache-control')).toBe(
      'public, max-age=31536000, immutable',
    );
    expect((await raw('/assets/tiny-Zz99.js', 'br')).headers.get('cache-control')).toBe(
      'public, max-age=31536000, immutable',
    );
    const sw = await raw('/sw.js', 'br');
    expect([sw.headers.get('cache-control'), sw.headers.get('content-encoding')]).toEqual(['no-cache', 'br']);
    expect(sw.headers.get('service-worker-allowed')).toBe('/');
    for (const page of ['/', '/mina-sidor']) {
      const res = await raw(page, 'br');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-encoding')).toBe('br');
      expect(await res.text()).toContain('<title>Stödlinjen</title>');
    }
  });
});

describe('API answers', () => {
  let assistant: TestServer;
  beforeAll(async () => {
    assistant = await startTestServer({ variant: 'assistent' });
  });
  afterAll(async () => assistant?.dispose());

  const post = (pathName: string, acceptEncoding: string) =>
    fetch(`${assistant.url}${pathName}`, {
      method: 'POST',
      headers: { 'Accept-Encoding': acceptEncoding, 'X-App-Variant': 'Assistent' },
    });

  it('of 1 KB or more go compressed by Accept-Encoding; smaller ones as they are', async () => {
    const tokenAnswer = await post('/portal/api/assistant/token', 'br, gzip');
    expect(tokenAnswer.status).toBe(200);
    expect(tokenAnswer.headers.get('content-encoding')).toBeNull();
    expect(tokenAnswer.headers.get('vary')).toMatch(/accept-encoding/i);
    const { access_token } = (await tokenAnswer.json()) as { access_token: string };

    const content = (acceptEncoding: string) =>
      fetch(`${assistant.url}/portal/api/assistant/content`, {
        headers: {
          'Accept-Encoding': acceptEncoding,
          'X-App-Variant': 'Assistent',
          Authorization: `Bearer ${access_token}`,
        },
      });
    const plain = await content('identity');
    const text = await plain.text();
    expect(text.length).toBeGreaterThan(1024);
    expect(plain.headers.get('content-encoding')).toBeNull();
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['br;q=0, gzip;q=0', null],
    ] as const) {
      const res = await content(accept);
      expect([accept, res.headers.get('content-encoding')]).toEqual([accept, encoding]);
      expect(await res.text()).toBe(text);
    }
  });
});
