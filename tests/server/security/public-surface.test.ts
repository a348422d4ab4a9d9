import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../harness/test-server.ts';
import { startTarget } from '../../../harness/attack.ts';

/**
 * Attack: reading what a site serves to anyone. /metrics (route names, counts, memory) and the
 * build's source maps were public. Now /metrics answers only the machine itself (as seen after
 * proxy resolution) or a bearer METRICS_TOKEN, and no source map is ever served.
 */
let server: TestServer;
let clientDir: string;
beforeAll(async () => {
  clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-client-'));
  fs.writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>Stödlinjen</title>');
  fs.mkdirSync(path.join(clientDir, 'assets'));
  fs.writeFileSync(
    path.join(clientDir, 'assets', 'index-abc.js'),
    'console.log(1);\n//# sourceMappingURL=index-abc.js.map',
  );
  fs.writeFileSync(path.join(clientDir, 'assets', 'index-abc.js.map'), '{"sources":["src/secret.ts"]}');
  server = await startTarget({ config: { clientDir, metricsToken: 'skrapnyckel-0123456789' } });
});
afterAll(async () => {
  await server?.dispose();
  fs.rmSync(clientDir, { recursive: true, force: true });
});

const metrics = (headers: Record<string, string>) => fetch(`${server.url}/metrics`, { headers });

describe('/metrics', () => {
  it('answers the machine itself', async () => {
    const res = await metrics({});
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/^hub_connections \d+$/m);
  });

  it('refuses another address, also one that claims to be loopback behind the proxy', async () => {
    expect((await metrics({ 'X-Forwarded-For': '203.0.113.9' })).status).toBe(403);
    expect((await metrics({ 'X-Forwarded-For': '127.0.0.1, 203.0.113.9' })).status).toBe(403);
    expect(
      (await metrics({ 'X-Forwarded-For': '203.0.113.9', Authorization: 'Bearer fel-nyckel' })).status,
    ).toBe(403);
  });

  it('answers another address with the bearer METRICS_TOKEN', async () => {
    const res = await metrics({
      'X-Forwarded-For': '203.0.113.9',
      Authorization: 'Bearer skrapnyckel-0123456789',
    });
    expect(res.status).toBe(200);
  });
});

describe('/metrics behind a proxy nobody named', () => {
  it('refuses what a loopback proxy forwards, without TRUST_PROXY', async () => {
    const behind = await startTarget({ config: { trustProxy: [] } });
    try {
      expect(
        (await fetch(`${behind.url}/metrics`, { headers: { 'X-Forwarded-For': '203.0.113.9' } })).status,
      ).toBe(403);
      expect((await fetch(`${behind.url}/metrics`)).status).toBe(200);
    } finally {
      await behind.dispose();
    }
  });
});

describe('source maps', () => {
  it('are never served, though the script itself is', async () => {
    expect((await fetch(`${server.url}/assets/index-abc.js`)).status).toBe(200);
    const map = await fetch(`${server.url}/assets/index-abc.js.map`);
    expect(map.status).toBe(404);
    expect(await map.text()).not.toContain('secret.ts');
  });

  it('are not made by the production build', async () => {
    const config = fs.readFileSync(path.resolve(import.meta.dirname, '../../../vite.config.ts'), 'utf8');
    expect(config).toMatch(/sourcemap: false/);
  });
});

describe('the browser policy of every answer', () => {
  it('turns off camera, microphone, geolocation and payment, and keeps other windows out', async () => {
    for (const url of ['/', '/config.json', '/portal/features/nothing', '/assets/index-abc.js']) {
      const res = await fetch(`${server.url}${url}`);
      expect(res.headers.get('permissions-policy'), url).toBe(
        'camera=(), microphone=(), geolocation=(), payment=()',
      );
      expect(res.headers.get('cross-origin-opener-policy'), url).toBe('same-origin');
      expect(res.headers.get('x-content-type-options'), url).toBe('nosniff');
    }
  });
});
