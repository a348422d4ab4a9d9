import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuntimeConfig } from '../../../contract/config.ts';
import { contentSecurityPolicy } from '../../../server/security/browser-policy.ts';
import type { TestServer } from '../../../harness/test-server.ts';
import { startTarget } from '../../../harness/attack.ts';

/**
 * Attack: a script or style that got into a page (a chat message, a meeting description, a name)
 * runs there, reads the child's conversations and sends them away. Every page and script now
 * carries a Content-Security-Policy that allows only the site's own files (no inline script or
 * style, no eval), talks only to the site, and requires Trusted Types for every HTML sink; over
 * https the browser is also told never to use plain http again.
 */
let clientDir: string;
const servers: TestServer[] = [];
/** Over plain http, without PUBLIC_ORIGIN (as on a developer's machine). */
let server: TestServer;
beforeAll(async () => {
  clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-client-'));
  fs.writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>Stödlinjen</title>');
  fs.mkdirSync(path.join(clientDir, 'personal'));
  fs.writeFileSync(path.join(clientDir, 'personal', 'index.html'), '<!doctype html><title>Personal</title>');
  fs.mkdirSync(path.join(clientDir, 'assets'));
  fs.writeFileSync(path.join(clientDir, 'assets', 'entry-abc.js'), 'self.onconnect = () => {};');
  server = await start();
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.dispose()));
  fs.rmSync(clientDir, { recursive: true, force: true });
});

async function start(publicOrigin?: string): Promise<TestServer> {
  const server = await startTarget({ config: { clientDir, publicOrigin } });
  servers.push(server);
  return server;
}

/** The directives of a policy header by name, each with its sources. */
function directives(header: string | null): Map<string, string[]> {
  expect(header).toBeTruthy();
  return new Map(
    header!.split(';').map((part) => {
      const [name = '', ...sources] = part.trim().split(/\s+/);
      return [name, sources];
    }),
  );
}

const PAGES = ['/', '/mina-sidor/meddelanden/123', '/personal', '/personal/chatt/9'];

describe('the pages of the child app and the staff console', () => {
  it('allow only the site’s own scripts, styles and connections, with Trusted Types required', async () => {
    for (const url of PAGES) {
      const res = await fetch(`${server.url}${url}`);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type'), url).toMatch(/^text\/html/);
      const policy = directives(res.headers.get('content-security-policy'));
      expect(policy.get('default-src'), url).toEqual(["'self'"]);
      expect(policy.get('script-src'), url).toEqual(["'self'"]);
      expect(policy.get('style-src'), url).toEqual(["'self'"]);
      expect(policy.get('img-src'), url).toEqual(["'self'", 'data:', 'blob:']);
      expect(policy.get('connect-src'), url).toEqual(["'self'"]);
      expect(policy.get('worker-src'), url).toEqual(["'self'"]);
      expect(policy.get('object-src'), url).toEqual(["'none'"]);
      expect(policy.get('base-uri'), url).toEqual(["'none'"]);
      expect(policy.get('form-action'), url).toEqual(["'self'"]);
      expect(policy.get('frame-ancestors'), url).toEqual(["'self'"]);
      expect(policy.get('require-trusted-types-for'), url).toEqual(["'script'"]);
      expect(policy.get('trusted-types'), url).toEqual(['portal', 'dompurify']);
    }
  });

  it('never allow inline code, eval or any source beyond the site for scripts and styles', async () => {
    for (const url of [...PAGES, '/assets/entry-abc.js', '/config.json']) {
      const header = (await fetch(`${server.url}${url}`)).headers.get('content-security-policy') ?? '';
      expect(header, url).not.toMatch(/unsafe-inline|unsafe-eval|unsafe-hashes|wasm-unsafe-eval|\*/);
      expect(header, url).not.toMatch(/'nonce-|'sha\d+-|strict-dynamic/);
    }
  });

  it('give a worker’s script the same policy: the worker may not eval or reach other sites', async () => {
    const res = await fetch(`${server.url}/assets/entry-abc.js`);
    expect(res.status).toBe(200);
    const policy = directives(res.headers.get('content-security-policy'));
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('connect-src')).toEqual(["'self'"]);
  });

  it('are framed only by the site itself, and frame only the site and the provider’s pages', async () => {
    const policy = directives((await fetch(`${server.url}/`)).headers.get('content-security-policy'));
    expect(policy.get('frame-src')).toEqual(["'self'", 'https://example.org']);
  });
});

describe('Strict-Transport-Security', () => {
  it('is sent when PUBLIC_ORIGIN is https', async () => {
    const https = await start('https://stod.example');
    for (const url of ['/', '/personal', '/config.json']) {
      expect((await fetch(`${https.url}${url}`)).headers.get('strict-transport-security'), url).toBe(
        'max-age=31536000; includeSubDomains',
      );
    }
  });

  it('is not sent over plain http', async () => {
    expect((await fetch(`${server.url}/`)).headers.get('strict-transport-security')).toBeNull();
  });
});

describe('a deployment whose auth, API or hub live elsewhere', () => {
  it('lets the pages connect to those origins, the hub also over WebSockets, and nothing else', () => {
    const config = {
      authUrl: 'https://auth.example',
      apiUrl: 'https://api.example/portal',
      signalHubUrl: 'https://hub.example',
      providerUrl: 'https://stod.example/om',
    } as RuntimeConfig;
    const policy = directives(contentSecurityPolicy(config, 'https://stod.example'));
    expect(policy.get('connect-src')).toEqual([
      "'self'",
      'https://auth.example',
      'https://api.example',
      'https://hub.example',
      'wss://hub.example',
    ]);
    // The provider's site is this site: 'self' already covers its frames.
    expect(policy.get('frame-src')).toEqual(["'self'"]);
  });
});
